// The source of redist_test_headers (tests/CMakeLists.txt): the target exists to precompile the
// headers every test program reuses; it compiles nothing of its own.
