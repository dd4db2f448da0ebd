// A library test_waits_sites.cpp loads from a copy and then deletes: a frame
// in a file deleted since it was loaded. The function returns its own line.
extern "C" int addscope_test_deleted_line() { return __LINE__; }
