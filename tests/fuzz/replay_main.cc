// A fuzz target without libFuzzer: each file named on the command line, and
// each file of each folder named (a corpus, which a target's
// LLVMFuzzerInitialize may seed), goes through LLVMFuzzerTestOneInput once,
// cut at fuzz.sh's -max_len as libFuzzer cuts what it loads. The ASan build
// links every fuzz_*.cc with this driver, so CI runs the targets over their
// seeds and the inputs of fixed crashes (ctest fuzz.replay.*) without a clang
// build; scripts/fuzz.sh is the campaign that looks for new crashes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv) {
  constexpr std::size_t kMaxLength = 65536;  // fuzz.sh's -max_len
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    if (std::filesystem::is_directory(argv[i])) {
      std::vector<std::string> corpus;
      for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
        if (entry.is_regular_file()) corpus.push_back(entry.path().string());
      }
      std::sort(corpus.begin(), corpus.end());
      inputs.insert(inputs.end(), corpus.begin(), corpus.end());
    } else {
      inputs.push_back(argv[i]);
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "%s: no inputs (usage: %s FILE-OR-FOLDER...)\n", argv[0], argv[0]);
    return 2;
  }
  for (const std::string& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read %s\n", argv[0], path.c_str());
      return 2;
    }
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() > kMaxLength) bytes.resize(kMaxLength);
    std::fprintf(stderr, "replay: %s\n", path.c_str());  // the last one named is the one a sanitizer stopped on
    static const std::uint8_t kNone = 0;                 // libFuzzer never passes a null pointer, not even for no bytes
    LLVMFuzzerTestOneInput(bytes.empty() ? &kNone : bytes.data(), bytes.size());
  }
  std::printf("%zu inputs ran\n", inputs.size());
  return 0;
}
