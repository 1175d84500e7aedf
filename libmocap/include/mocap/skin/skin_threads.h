// SkinThreads: a SkinJob split between persistent worker threads.
#pragma once

#include <mocap/skin/skin_job.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace mocap {

// Persistent worker threads that split a SkinJob's vertices between them and
// the calling thread. Running a job allocates nothing and starts no thread.
class SkinThreads {
 public:
  // `threads` in all, counting the caller; 0 means std::thread::hardware_concurrency().
  explicit SkinThreads(int threads = 0);
  ~SkinThreads();
  SkinThreads(const SkinThreads&) = delete;
  SkinThreads& operator=(const SkinThreads&) = delete;

  int thread_count() const { return static_cast<int>(workers_.size()) + 1; }
  // Runs `job` over all its vertices (job.validate() must have passed) and
  // returns when every vertex is done.
  void run(const SkinJob& job);

 private:
  void worker_loop();
  void work();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const SkinJob* job_ = nullptr;
  std::uint64_t generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
  std::atomic<int> next_chunk_{0};
  int chunk_count_ = 0;
  int chunk_size_ = 0;
};
}  // namespace mocap
