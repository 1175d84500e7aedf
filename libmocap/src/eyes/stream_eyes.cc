#include <mocap/eyes/stream_eyes.h>
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <ctime>
#include <thread>

namespace mocap {

Result<EyeStreamStats> stream_eyes(const EyeStreamOptions& options, EyeTimeline& timeline, double open_timeout_s) {
  // Both devices must open before the stream starts (later losses are
  // retried while it runs); one that does not appear within the timeout is
  // the caller's output error.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::duration<double>(open_timeout_s);
  for (const std::string& path : {options.left_path, options.right_path}) {
    for (;;) {
      auto fd = open_serial(path, options.baud);
      if (fd) {
        ::close(*fd);
        break;
      }
      if (std::chrono::steady_clock::now() >= give_up) return std::unexpected(fd.error());
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  EyeStreamer streamer(options, [&timeline](double t) { return timeline.at(t); });
  streamer.start();
  const timespec tick{0, 50'000'000};
  while (!streamer.finished()) {
    if (sigtimedwait(&signals, nullptr, &tick) > 0) break;
  }
  streamer.stop();
  pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
  return streamer.stats();
}

}  // namespace mocap
