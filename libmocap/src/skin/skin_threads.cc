// SkinThreads: persistent workers pulling chunks of a job's vertices.
#include <mocap/skin/skin_threads.h>

#include <algorithm>

namespace mocap {

SkinThreads::SkinThreads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

SkinThreads::~SkinThreads() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void SkinThreads::work() {
  for (;;) {
    const int chunk = next_chunk_.fetch_add(1, std::memory_order_relaxed);
    if (chunk >= chunk_count_) return;
    const int begin = chunk * chunk_size_;
    const int end = std::min(begin + chunk_size_, static_cast<int>(job_->positions.size()));
    job_->run(begin, end);
  }
}

void SkinThreads::worker_loop() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    work();
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

void SkinThreads::run(const SkinJob& job) {
  const int n = static_cast<int>(job.positions.size());
  if (workers_.empty() || n < 4096) {
    job.run();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    // A few chunks per thread balance the load without much contention on the
    // counter; multiples of 8 vertices keep the 8-wide kernels off their tail path.
    chunk_size_ = (std::max(1024, n / (thread_count() * 8)) + 7) / 8 * 8;
    chunk_count_ = (n + chunk_size_ - 1) / chunk_size_;
    next_chunk_.store(0, std::memory_order_relaxed);
    busy_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  work();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  job_ = nullptr;
}

}  // namespace mocap
