// Copyright RingKernel authors.
#include "host_stream.h"

#include <system_error>
#include <utility>

namespace ringkernel::detail {

namespace {

struct FailingStarts {
  std::mutex mutex;
  int skip = 0;  // starts that still succeed before
  int fail = 0;  // this many fail
};
FailingStarts& failing_starts() {
  static FailingStarts seam;
  return seam;
}

/// std::thread's own failure, or the test seam's imitation of it.
template <class F>
std::thread start_worker(F&& run) {
  auto& seam = failing_starts();
  {
    std::lock_guard lock(seam.mutex);
    if (seam.skip > 0) {
      --seam.skip;
    } else if (seam.fail > 0) {
      --seam.fail;
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                              "std::thread (RingKernel test seam)");
    }
  }
  return std::thread(std::forward<F>(run));
}

}  // namespace

void fail_host_worker_starts_for_testing(int count, int after) noexcept {
  auto& seam = failing_starts();
  std::lock_guard lock(seam.mutex);
  seam.skip = after;
  seam.fail = count;
}

std::uint64_t HostEvent::reserve_record() {
  std::lock_guard lock(mutex_);
  pending_.insert(reserved_ + 1);  // may throw: nothing changed yet
  return ++reserved_;
}

void HostEvent::publish(std::uint64_t generation) noexcept {
  std::lock_guard lock(mutex_);
  latest_ = generation;
}

void HostEvent::complete(std::uint64_t generation) noexcept {
  {
    std::lock_guard lock(mutex_);
    pending_.erase(generation);
  }
  completed_cv_.notify_all();
}

std::uint64_t HostEvent::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void HostEvent::wait_for(std::uint64_t generation) const {
  std::unique_lock lock(mutex_);
  completed_cv_.wait(lock, [&] { return !pending_.contains(generation); });
}

bool HostEvent::reached(std::uint64_t generation) const {
  std::lock_guard lock(mutex_);
  return !pending_.contains(generation);
}

HostStream::HostStream() : worker_(start_worker([this] { run(); })) {}

HostStream::~HostStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_one();
  worker_.join();
}

void HostStream::enqueue(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Task{std::move(task), nullptr, 0});
    ++enqueued_;
  }
  work_cv_.notify_one();
}

void HostStream::enqueue_record(HostEvent& event) {
  auto e = event.shared_from_this();
  {
    std::lock_guard lock(mutex_);
    // Room in the queue first, then the generation: std::bad_alloc from either leaves nothing
    // pending that no signal would complete.
    queue_.push_back(Task{{}, e, 0});
    try {
      queue_.back().generation = e->reserve_record();
    } catch (...) {
      queue_.pop_back();
      throw;
    }
    ++enqueued_;
    e->publish(queue_.back().generation);
  }
  work_cv_.notify_one();
}

void HostStream::synchronize() {
  std::unique_lock lock(mutex_);
  const std::uint64_t target = enqueued_;
  idle_cv_.wait(lock, [&] { return finished_ >= target; });
}

bool HostStream::idle() {
  std::lock_guard lock(mutex_);
  return finished_ == enqueued_;
}

void HostStream::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return;  // stopping and drained
    Task task = std::move(queue_.front());
    queue_.pop_front();
    if (!task.record) {
      lock.unlock();
      task.run();  // tasks are validated before they are queued and do not throw
      lock.lock();
    } else {
      task.record->complete(task.generation);  // under the lock: counted finished in the same step
    }
    ++finished_;
    idle_cv_.notify_all();
  }
}

}  // namespace ringkernel::detail
