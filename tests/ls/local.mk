# tests/ls: devimg-ls (tools/local.mk).

ls_shell_tests = tests/ls/ls.sh tests/ls/escape.sh tests/ls/why.sh
TESTS += $(ls_shell_tests)
dist_check_SCRIPTS += $(ls_shell_tests)
