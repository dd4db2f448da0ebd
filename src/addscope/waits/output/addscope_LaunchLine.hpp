// addscope — the program's own launch line, written with the launch the
// device needs: where a kernel ran starved and the line that launched it
// spells its configuration out in numbers, the same line with the filling
// launch in their place — numba's `add[1, 1](x, y, out)` becomes
// `add[1056, 256](x, y, out)`, CuPy's RawKernel `add((1,), (1,), (x, y))`
// `add((1056,), (256,), (x, y))`, CUDA C++'s `add<<<1, 1>>>(x, y)`
// `add<<<1056, 256>>>(x, y)`. Only a configuration whose numbers are those
// the kernel ran with is rewritten (a configuration held in variables, or a
// line that launched something else, gives ""); the line's comment is
// dropped (it spoke of the old launch). Pure; Kokkos-free.
#ifndef ADDSCOPE_WAITS_OUTPUT_LAUNCHLINE_HPP
#define ADDSCOPE_WAITS_OUTPUT_LAUNCHLINE_HPP

#include <string>

#include "addscope/waits/model/addscope_CodeSite.hpp"
#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {

/// `at`'s text with the launch configuration `ran` (one-dimensional) written
/// as `fill`; "" when the text does not spell `ran` out in one of the forms
/// above, or either shape is unknown or not one-dimensional.
std::string launch_line_as(const CodeSite& at, const LaunchShape& ran,
                           const LaunchShape& fill);

}  // namespace addscope

#endif
