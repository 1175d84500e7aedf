// The system's tinyobjloader is built against libstdc++ and the fuzz targets
// use libc++ (the std::string in its API differs), so the single-header
// library's implementation is compiled here, into every target that may
// reach io/mesh.cc (OBJ files, and the normals of rigged models).
#include <string>  // defines _LIBCPP_VERSION under libc++

#if defined(_LIBCPP_VERSION)
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>
#endif
