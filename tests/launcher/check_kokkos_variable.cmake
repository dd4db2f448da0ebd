# The launcher sets only the variable the program's Kokkos reads: run it on
# PROGRAM with KOKKOS_PROFILE_LIBRARY and KOKKOS_TOOLS_LIBS set outside to
# another library; the program prints what it was given.
#   -DLAUNCHER= -DPROGRAM= -DTOOL= -DEXPECT=tools|profile|both
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env KOKKOS_PROFILE_LIBRARY=/opt/other/libkp.so
          KOKKOS_TOOLS_LIBS=/opt/other/libkp.so
          ${LAUNCHER} --tool ${TOOL} --load kokkos -- ${PROGRAM}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit ${rc}:\n${out}\n${err}")
endif()
get_filename_component(tool ${TOOL} REALPATH)
if(EXPECT STREQUAL "tools")
  set(want "KOKKOS_TOOLS_LIBS=${tool}\nKOKKOS_PROFILE_LIBRARY=(unset)\n")
  set(said "KOKKOS_PROFILE_LIBRARY was '/opt/other/libkp.so'; unset")
elseif(EXPECT STREQUAL "profile")
  set(want "KOKKOS_TOOLS_LIBS=(unset)\nKOKKOS_PROFILE_LIBRARY=${tool}\n")
  set(said "KOKKOS_TOOLS_LIBS was '/opt/other/libkp.so'; unset")
else()
  set(want "KOKKOS_TOOLS_LIBS=${tool}\nKOKKOS_PROFILE_LIBRARY=${tool}\n")
  set(said "KOKKOS_TOOLS_LIBS was '/opt/other/libkp.so'; replaced")
endif()
string(FIND "${out}" "${want}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "expected (${EXPECT}):\n${want}\ngot:\n${out}\n${err}")
endif()
string(FIND "${err}" "${said}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the launcher did not say '${said}':\n${err}")
endif()
message(STATUS "${out}")
