# wrapper: filled in by its issue
