# apps/check_exit.cmake with MATCH's <SEMI> made a ';' (a CMake list of
# cases cannot hold one).
string(REPLACE "<SEMI>" ";" MATCH "${MATCH}")
include(${CMAKE_CURRENT_LIST_DIR}/../../apps/check_exit.cmake)
