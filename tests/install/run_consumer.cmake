# Installs addscope into a scratch prefix, then as a user would:
#   1. runs the installed programs (no LD_LIBRARY_PATH: they must find their
#      libraries through their RUNPATH);
#   2. builds the consumer project against the prefix with
#      find_package(addscope), including the README's library snippet, and
#      runs both.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
endfunction()
function(expect text)
  string(FIND "${last_out}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "output lacks '${text}':\n${last_out}")
  endif()
endfunction()

file(REMOVE_RECURSE ${PREFIX} ${CONSUMER_BUILD})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})
set(clean ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH OMP_PROC_BIND=false)

# 1. The installed programs run.
run(${clean} ${PREFIX}/bin/addscope-demo --version)
expect("addscope-demo ${VERSION}")
run(${clean} ${PREFIX}/bin/addscope-bench --version)
expect("addscope-bench ${VERSION}")
run(${clean} ${PREFIX}/bin/addscope-demo --n 1000 --repeat 1 --configs range)
expect("All results verified")
message(STATUS "installed addscope-demo ran:\n${last_out}")

# 2. The README's snippet, exactly as printed there.
file(READ ${README} readme)
string(REGEX MATCH "<!-- readme-snippet: library -->[^`]*```cpp\n(.*)" m "${readme}")
if(NOT m)
  message(FATAL_ERROR "README.md has no '<!-- readme-snippet: library -->' block")
endif()
string(FIND "${CMAKE_MATCH_1}" "```" end)
string(SUBSTRING "${CMAKE_MATCH_1}" 0 ${end} snippet)
file(MAKE_DIRECTORY ${CONSUMER_BUILD})
file(WRITE ${CONSUMER_BUILD}/readme_snippet.cpp "${snippet}")

run(${CMAKE_COMMAND} -S ${CONSUMER_SRC} -B ${CONSUMER_BUILD} -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release
    -Daddscope_ROOT=${PREFIX} -DKokkos_DIR=${KOKKOS_DIR}
    -DKokkosKernels_DIR=${KOKKOSKERNELS_DIR}
    -DREADME_SNIPPET=${CONSUMER_BUILD}/readme_snippet.cpp)
run(${CMAKE_COMMAND} --build ${CONSUMER_BUILD})
run(${clean} ${CONSUMER_BUILD}/addscope-consumer)
expect("0 wrong elements")
run(${clean} ${CONSUMER_BUILD}/addscope-readme-snippet)
expect("advice:")
message(STATUS "README snippet ran:\n${last_out}")
