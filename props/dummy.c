int props_dummy(void); int props_dummy(void) { return 0; }
