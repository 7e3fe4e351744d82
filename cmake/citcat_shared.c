/* The shared libcitcat's own translation unit.  CMake needs one source per
 * library; every object of the shared library comes from the static one,
 * linked whole (cmake/citcat_lib.cmake). */
typedef int citcat_shared_unit;
