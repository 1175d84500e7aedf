#include <mocap/io/atomic_write.h>
#include <mocap/io/image.h>

// Debian's libstb-dev: the encoder compiled into this file alone, its
// functions static, so nothing else needs linking against libstb.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image_write.h>
#pragma GCC diagnostic pop

namespace mocap {

Result<void> write_png(const std::string& path, int width, int height, std::span<const std::uint8_t> rgb) {
  if (width <= 0 || height <= 0) {
    return fail(path, 0, "a picture of " + std::to_string(width) + "x" + std::to_string(height) + " pixels");
  }
  if (rgb.size() < static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3) {
    return fail(path, 0, "the picture's pixels are fewer than its size says");
  }
  std::string png;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 3, rgb.data(), width * 3)) {
    return fail(path, 0, "cannot encode the PNG");
  }
  return write_file_atomically(path, png);
}

}  // namespace mocap
