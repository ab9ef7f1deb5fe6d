// Copyright RingKernel authors.
// Host backend streams and events: a stream is a worker thread executing its tasks in order, so
// asynchronous work really runs asynchronously; an event counts records and completions.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "backend.h"

namespace ringkernel::detail {

class HostEvent final : public EventImpl, public std::enable_shared_from_this<HostEvent> {
 public:
  /// Generation of a new record, pending until complete(generation); latest() does not name it
  /// until publish(generation). Strong guarantee: std::bad_alloc leaves the event as it was.
  std::uint64_t reserve_record();
  /// The record is queued on its stream (HostStream::enqueue_record): latest() names it from now.
  void publish(std::uint64_t generation) noexcept;
  void complete(std::uint64_t generation) noexcept;
  /// Generation of the latest record queued (0: never recorded). A wait for it waits for a signal
  /// already in its stream, never for one queued after the wait (cudaStreamWaitEvent's semantics).
  std::uint64_t latest() const;
  /// Wait until / whether record `generation` itself has completed. Records on different streams
  /// complete in any order: a later one completing says nothing about an earlier one.
  void wait_for(std::uint64_t generation) const;
  bool reached(std::uint64_t generation) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable completed_cv_;
  std::uint64_t reserved_ = 0;  // generations handed out
  std::uint64_t latest_ = 0;    // the latest published one
  std::set<std::uint64_t> pending_;  // generations recorded but not completed yet
};

/// Test seam (private to the runtime and its tests): after the next `after` host worker threads,
/// `count` fail to start as std::thread does when the process has no threads left
/// (std::system_error, resource_unavailable_try_again). (0, 0) ends it.
void fail_host_worker_starts_for_testing(int count, int after = 0) noexcept;

class HostStream final : public StreamImpl {
 public:
  /// std::system_error if its worker thread cannot be started (HostBackend::create_stream turns
  /// that into a ringkernel::Error).
  HostStream();
  ~HostStream() override;  // finishes the queued work, then joins the worker
  HostStream(const HostStream&) = delete;
  HostStream& operator=(const HostStream&) = delete;

  void enqueue(std::function<void()> task);
  /// An event's record, queued as one step (as cudaEventRecord): the generation is reserved, its
  /// signal queued and the generation published under the stream's lock, so a Stream::wait or
  /// Event::synchronize of another thread finds either the previous record or this one, queued.
  /// (Publishing before queuing let a wait on this stream come in between and wait for a signal
  /// then queued behind it: the stream hung.) The signal runs under the stream's lock as the stream
  /// counts it finished, so whoever it wakes finds the stream idle if it was the last task (as
  /// cudaStreamQuery after cudaEventSynchronize), and synchronize() never returns before it ran.
  void enqueue_record(HostEvent& event);
  /// Blocks until the work enqueued before the call has finished.
  void synchronize();
  bool idle();

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  struct Task {
    std::function<void()> run;           // enqueue's
    std::shared_ptr<HostEvent> record;   // enqueue_record's (run is empty)
    std::uint64_t generation = 0;
  };
  std::deque<Task> queue_;
  // Tasks enqueued / finished so far: synchronize() waits for the count it saw, so work other
  // threads keep adding does not hold it up (waiting for an empty queue could wait forever).
  std::uint64_t enqueued_ = 0;
  std::uint64_t finished_ = 0;
  bool stopping_ = false;
  std::thread worker_;  // last: starts after everything above is initialised
};

}  // namespace ringkernel::detail
