# Installs addscope into a scratch prefix, then as a user would:
#   1. runs the installed programs (no LD_LIBRARY_PATH: they must find their
#      libraries through their RUNPATH; addscope-waits its tool beside it);
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
# The installed launcher loads the installed tool (found beside it).
run(${clean} ${PREFIX}/bin/addscope-waits --version)
expect("addscope-waits ${VERSION}")
run(${clean} ${PREFIX}/bin/addscope-waits --top 3 -- ${CMAKE_COMMAND} -E environment)
get_filename_component(_real_prefix ${PREFIX} REALPATH)
expect("CUDA_INJECTION64_PATH=${_real_prefix}/")
expect("KOKKOS_TOOLS_LIBS=${_real_prefix}/")
expect("libaddscope_waits.so\n")
expect("ADDSCOPE_WAITS_TOP=3")

# 2. The snippets of docs/library.md (README), exactly as printed there.
file(READ ${README} readme)
function(snippet name file)
  string(REGEX MATCH "<!-- readme-snippet: ${name} -->[^`]*```cpp\n(.*)" m "${readme}")
  if(NOT m)
    message(FATAL_ERROR "${README} has no '<!-- readme-snippet: ${name} -->' block")
  endif()
  string(FIND "${CMAKE_MATCH_1}" "```" end)
  string(SUBSTRING "${CMAKE_MATCH_1}" 0 ${end} text)
  file(WRITE ${file} "${text}")
endfunction()
file(MAKE_DIRECTORY ${CONSUMER_BUILD})
snippet(library ${CONSUMER_BUILD}/readme_snippet.cpp)
snippet(wait-scope ${CONSUMER_BUILD}/readme_wait_scope.cpp)

run(${CMAKE_COMMAND} -S ${CONSUMER_SRC} -B ${CONSUMER_BUILD} -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release
    -Daddscope_ROOT=${PREFIX} -DKokkos_DIR=${KOKKOS_DIR}
    -DKokkosKernels_DIR=${KOKKOSKERNELS_DIR}
    -DREADME_SNIPPET=${CONSUMER_BUILD}/readme_snippet.cpp
    -DREADME_WAIT_SCOPE=${CONSUMER_BUILD}/readme_wait_scope.cpp)
run(${CMAKE_COMMAND} --build ${CONSUMER_BUILD})
run(${clean} ${CONSUMER_BUILD}/addscope-consumer)
expect("0 wrong elements")
run(${clean} ${CONSUMER_BUILD}/addscope-readme-snippet)
expect("advice:")
message(STATUS "README snippet ran:\n${last_out}")

# 3. The WaitScope snippet, with the installed waits tool loaded: its region
# reaches the report once (the program links the same libaddscope_waits).
file(GLOB tool ${PREFIX}/lib*/libaddscope_waits.so)
set(json ${CONSUMER_BUILD}/wait_scope_waits.json)
file(REMOVE ${json})
run(${clean} KOKKOS_PROFILE_LIBRARY=${tool} KOKKOS_TOOLS_LIBS=${tool}
    ADDSCOPE_WAITS_JSON=${json} ${CONSUMER_BUILD}/addscope-readme-wait-scope)
expect("x[1] = 1")
file(READ ${json} report)
string(FIND "${report}" "\"regions\": \"assemble\"" at)
string(FIND "${report}" "assemble > assemble" twice)
if(at EQUAL -1 OR NOT twice EQUAL -1)
  message(FATAL_ERROR "the tool's JSON does not name region 'assemble' once:\n${report}")
endif()
message(STATUS "README WaitScope snippet ran under the waits tool:\n${last_out}")
