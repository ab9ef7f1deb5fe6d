// Copyright RingKernel authors.
// ringkernel::P2PMessageQueue<T> (DESIGN.md §6; IP2PMessageQueue<T> of the reference): a message
// queue from a source device to a destination device, on one MPMC ring whose placement follows
// the transfer mode:
//   direct_p2p:  the ring lives in the destination's memory; the source reaches it through a peer
//                mapping (PeerMemory::enable_peer_access + map_peer_memory), so a sender on
//                the source writes straight over the link;
//   host_staged: the ring lives in pinned host memory mapped for both devices;
//   adaptive:    direct_p2p where the pair, its link and the declared users allow it (see
//                p2p_queue_options.h), the ring fits the destination's memory and enabling peer
//                access succeeds, else host_staged (where the pinned memory serves both sides).
// The decision uses the backend's real capabilities (the host backend: its configured topology
// and atomics); transfer_mode() reports the mode in force. Host threads use send/receive; kernels
// use source_ring() / destination_ring() (the same ring seen from each device's address space),
// or in host_staged mode kernel_ring(): claims at device scope (each index is claimed by one GPU's
// kernels: head by the source's, tail by the destination's), which a device without host-native
// atomics needs on pinned memory (mpmc_ring.h, top; source_ring()'s system-scope claims there are
// what compute-sanitizer memcheck rejects). direct_p2p keeps system scope (peer native atomics).
// Every mode but CUDA direct_p2p is an MpmcQueue over that ring (§4's policies, handler and
// statistics); CUDA direct_p2p is a bare ring in GPU memory (below).
// P2PQueueOptions::producers / consumers declare who works each side (queue_users.h): with the
// CUDA backend, direct_p2p puts the ring in GPU memory, which host threads cannot load or store,
// so it needs both sides declared QueueUsers::kernels; its host-side send/receive calls (and
// try_peek, clear) throw Error(errc::unsupported) naming host_staged;
// count(), is_empty(), is_full(), shutdown(), is_shut_down() and statistics() still work (they
// copy the ring's control words on a stream the queue keeps). The host backend supports every
// mode from host threads.
// statistics(): sent, received and bytes_* come from the ring's indices, so they count kernel
// pushes and pops too, in every mode; the other counters, high_water_mark and latency count host
// calls only (zero in CUDA direct_p2p, whose `detailed` is false). policy() governs host sends
// only: kernels push with the ring's own calls, which apply no policy (as for MpmcQueue), so with
// producers declared QueueUsers::kernels set_eviction_handler throws unsupported on every backend.
// Peer access (direct_p2p only; host_staged neither enables it nor maps): the queue enables it
// after allocating the ring and never disables it (a queue that was built, or failed, leaves it
// enabled); its peer mapping is its own (a PeerMemory member), so
// the PeerMemory passed to the constructor is used during construction only and may be destroyed
// before the queue, while every PeerMemory's disable_peer_access(source, destination) is refused
// as long as the queue lives. Destroying a direct_p2p queue frees the destination's memory without
// waiting for kernels on the source that still write through the mapping: end them first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "ringkernel/detail/stop_token.h"
#include "ringkernel/detail/to_size.h"
#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/p2p_queue_options.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/queue/message_queue.h"
#include "ringkernel/stream.h"

namespace ringkernel {

template <class T>
class P2PMessageQueue {
 public:
  using ring_type = mpmc_ring<T, atomic_scope::system>;
  using kernel_ring_type = typename MpmcQueue<T>::kernel_ring_type;  // mpmc_ring<T, system, device>
  using duration = std::chrono::nanoseconds;

  /// `peers` decides the mode and enables peer access, during construction only: it need not
  /// outlive the queue (the queue's peer mapping belongs to a PeerMemory of its own).
  P2PMessageQueue(PeerMemory& peers, int source_device, int destination_device, P2PQueueOptions options = {})
      : source_(checked_device(source_device, "source device")),
        destination_(checked_device(destination_device, "destination device")),
        direct_available_(source_device != destination_device && peers.can_access_peer(source_device, destination_device)),
        mode_(detail::resolve_p2p_mode(peers, source_device, destination_device,
                                       prevalidated(options, source_device, destination_device))),
        capacity_(options.capacity),
        policy_(options.policy),
        producers_(options.producers) {
    place_ring(peers, options);
  }
  ~P2PMessageQueue() {
    if (source_mapping_ != nullptr) {
      try {
        mapper_.unmap_peer_memory(source_mapping_, source_);
      } catch (...) {  // not expected (the mapping is the queue's own); a destructor must not throw
      }
    }
  }
  P2PMessageQueue(const P2PMessageQueue&) = delete;
  P2PMessageQueue& operator=(const P2PMessageQueue&) = delete;

  template <class Rep = duration::rep, class Period = duration::period>
  SendResult send(const T& m, std::chrono::duration<Rep, Period> timeout = default_queue_timeout,
                  std::stop_token stop = {}) {
    return host_queue("P2PMessageQueue::send", host_role::producer).send(m, timeout, std::move(stop));
  }
  SendResult try_send(const T& m) { return host_queue("P2PMessageQueue::try_send", host_role::producer).try_send(m); }
  template <class Rep = duration::rep, class Period = duration::period>
  BatchSendResult send_batch(std::span<const T> ms, std::chrono::duration<Rep, Period> timeout = default_queue_timeout,
                             std::stop_token stop = {}) {
    return host_queue("P2PMessageQueue::send_batch", host_role::producer).send_batch(ms, timeout, std::move(stop));
  }
  BatchSendResult try_send_batch(std::span<const T> ms) {
    return host_queue("P2PMessageQueue::try_send_batch", host_role::producer).try_send_batch(ms);
  }
  template <class Rep = duration::rep, class Period = duration::period>
  ReceiveStatus receive(T& out, std::chrono::duration<Rep, Period> timeout = default_queue_timeout,
                        std::stop_token stop = {}) {
    return host_queue("P2PMessageQueue::receive", host_role::consumer).receive(out, timeout, std::move(stop));
  }
  ReceiveStatus try_receive(T& out) { return host_queue("P2PMessageQueue::try_receive", host_role::consumer).try_receive(out); }
  template <class Rep = duration::rep, class Period = duration::period>
  BatchReceiveResult receive_batch(std::span<T> out, std::chrono::duration<Rep, Period> timeout = default_queue_timeout,
                                   std::stop_token stop = {}) {
    return host_queue("P2PMessageQueue::receive_batch", host_role::consumer).receive_batch(out, timeout, std::move(stop));
  }
  BatchReceiveResult try_receive_batch(std::span<T> out) {
    return host_queue("P2PMessageQueue::try_receive_batch", host_role::consumer).try_receive_batch(out);
  }
  /// The oldest message without removing it (the queue's single receiver only: not checked, and
  /// the default consumers, host_and_kernels, let kernels pop meanwhile; see docs/messaging.md §5).
  bool try_peek(T& out) const { return host_queue("P2PMessageQueue::try_peek", host_role::consumer).try_peek(out); }
  std::size_t clear() { return host_queue("P2PMessageQueue::clear", host_role::consumer).clear(); }
  /// Throws Error(unsupported) when producers are declared QueueUsers::kernels (both backends):
  /// only host sends evict, so the handler would never run.
  void set_eviction_handler(std::function<void(const T&)> handler) {
    if (!has_host(producers_)) {
      throw Error(errc::unsupported, "P2PMessageQueue::set_eviction_handler", source_,
                  "this queue's producers are declared QueueUsers::kernels, and the handler sees only what a "
                  "host-side send evicts (FullPolicy::drop_oldest): kernels' pushes apply no policy, so it would "
                  "never run. Declare producers = QueueUsers::host or host_and_kernels for host sends that evict "
                  "(with the CUDA backend the ring is then host_staged), or set no handler");
    }
    host_queue("P2PMessageQueue::set_eviction_handler", host_role::either).set_eviction_handler(std::move(handler));
  }
  /// Later host sends see the queue closed (SendStatus::closed); kernels' pushes do not read the
  /// flag (they read ring.closed() themselves, docs/messaging.md §4); queued messages stay receivable.
  void shutdown() {
    if (queue_ != nullptr) {
      queue_->shutdown();
    } else {
      const std::uint64_t closed = 1;
      kernel_storage_->upload(&closed, sizeof closed, offsetof(detail::ring_control, closed), *control_stream_);
    }
  }
  /// shutdown() was called (or a kernel closed the ring).
  bool is_shut_down() const {
    if (queue_ != nullptr) return queue_->is_shut_down();
    std::uint64_t closed = 0;
    kernel_storage_->download(&closed, sizeof closed, offsetof(detail::ring_control, closed), *control_stream_);
    return closed != 0;
  }
  /// Governs host sends only (kernels' pushes apply no policy).
  FullPolicy policy() const noexcept { return policy_; }

  /// sent / received / bytes_* from the ring's indices (kernel traffic included); the rest counts
  /// host calls (see top). CUDA direct_p2p: the indices only, `detailed` false.
  QueueStatistics statistics() const {
    if (queue_ != nullptr) return queue_->statistics();
    const detail::ring_control control = download_control();
    QueueStatistics s;  // no host calls, no eviction, no clear: received is every position taken
    s.sent = control.head - control.start;
    // One copy reads both words in no set order: while kernels work the ring the tail may be the
    // newer one, so it is capped at the head read (exact once the kernels have stopped).
    s.received = std::min(control.tail - control.start, s.sent);
    s.bytes_sent = s.sent * sizeof(T);
    s.bytes_received = s.received * sizeof(T);
    return s;
  }
  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t count() const {
    if (queue_ != nullptr) return queue_->count();
    const detail::ring_control control = download_control();
    return detail::to_size(detail::occupancy(control.head, control.tail, capacity_));
  }
  bool is_empty() const { return count() == 0; }
  bool is_full() const { return count() >= capacity_; }
  /// The mode in force: direct_p2p or host_staged (adaptive is resolved at construction).
  P2PTransferMode transfer_mode() const noexcept { return mode_; }
  int source_device() const noexcept { return source_; }
  int destination_device() const noexcept { return destination_; }
  /// The pair supports direct peer access (source -> destination), whatever mode was chosen.
  bool direct_p2p_available() const noexcept { return direct_available_; }
  /// Host threads can send and receive (false only for CUDA direct_p2p: kernels only, see top).
  bool host_endpoints() const noexcept { return queue_ != nullptr; }

  /// The ring as kernels on the source device address it (the peer mapping in direct_p2p mode).
  /// For kernels: in CUDA direct_p2p mode it points at GPU memory, and a host thread calling its
  /// try_push / try_pop faults instead of throwing (the queue's own calls refuse, see top).
  ring_type source_ring() const noexcept {
    return source_mapping_ != nullptr ? ring_type(source_mapping_, capacity_) : ring_;
  }
  /// The ring as kernels on the destination device (and host threads) address it.
  ring_type destination_ring() const noexcept { return ring_; }
  /// host_staged: the ring for kernels on either device (pinned memory: one address for both), with
  /// claims at device scope (see top). Throws Error: unsupported in direct_p2p mode (use
  /// source_ring() / destination_ring()) or when a side is host_and_kernels; invalid_argument when
  /// no side is declared for kernels (MpmcQueue::kernel_ring).
  kernel_ring_type kernel_ring() const {
    if (mode_ != P2PTransferMode::host_staged) {
      throw Error(errc::unsupported, "P2PMessageQueue::kernel_ring", source_,
                  "the queue is in direct_p2p mode: its ring is in device " + std::to_string(destination_) +
                      "'s memory and the source's kernels claim over the peer link, which needs system-scope "
                      "claims (native peer atomics): use source_ring() / destination_ring(); kernel_ring() is "
                      "for host_staged mode (transfer_mode())");
    }
    try {
      return queue_->kernel_ring();
    } catch (const Error& e) {
      throw Error(e.code(), "P2PMessageQueue::kernel_ring", e.device(), "P2PQueueOptions: " + e.detail());
    }
  }

 private:
  // Device ids and options are checked before the mode is resolved, which may enable peer access,
  // and their errors name this class (not the device lookup or the queue underneath).
  static int checked_device(int id, const char* role) {
    (void)require_device(id, "P2PMessageQueue", role);
    return id;
  }
  // Capacity, policy, and users as the policy needs them (drop_oldest); which memory can serve
  // the users is resolve_p2p_mode's part (QueueMemory::device here skips that check).
  // An error about a side names that side's device (the producers' is the source).
  static const P2PQueueOptions& prevalidated(const P2PQueueOptions& o, int source, int destination) {
    try {
      detail::check_ring_side("P2PMessageQueue", {"producers", o.producers, true, source}, QueueMemory::device);
      detail::check_ring_side("P2PMessageQueue", {"consumers", o.consumers, true, destination}, QueueMemory::device);
      MpmcQueue<T>::validate(QueueOptions{.capacity = o.capacity, .policy = o.policy, .memory = QueueMemory::device,
                                          .device = destination, .producers = o.producers, .consumers = o.consumers});
    } catch (const Error& e) {
      throw Error(e.code(), "P2PMessageQueue", e.device(), "P2PQueueOptions: " + e.detail());
    }
    return o;
  }

  // The ring in the memory the mode needs, and the source's peer mapping of it (direct_p2p).
  // Peer access is enabled only once the ring is allocated (a ring that does not fit changes
  // nothing) and never disabled here: a failed construction disabling what it had enabled could
  // take away the access a concurrent construction, or a user's thread, had just enabled and relies
  // on (PeerMemory cannot tell the two apart). If the ring does not fit the destination's memory,
  // or enabling fails, adaptive mode stages the ring (detail::direct_ring_did_not_fit,
  // enable_direct_access: they refuse, saying why, where pinned memory cannot serve the sides).
  void place_ring(PeerMemory& peers, const P2PQueueOptions& options) {
    std::string direct_why;  // why adaptive mode fell back to host_staged
    try {
      allocate_storage(options);
    } catch (const Error& e) {
      if (e.code() != errc::out_of_memory || mode_ != P2PTransferMode::direct_p2p) throw;
      mode_ = detail::direct_ring_did_not_fit(source_, destination_, options, e, direct_why);  // adaptive: host_staged
      allocate_ring(options, &direct_why);
      return;
    }
    if (kernel_storage_) place_kernel_ring(options.capacity);
    if (mode_ != P2PTransferMode::direct_p2p) return;
    mode_ = detail::enable_direct_access(peers, source_, destination_, options, direct_why);
    if (mode_ != P2PTransferMode::direct_p2p) {  // adaptive, enabling failed: host_staged
      queue_.reset();
      kernel_storage_.reset();
      control_stream_.reset();
      allocate_ring(options, &direct_why);
      return;
    }
    try {
      source_mapping_ = mapper_.map_peer_memory(storage().data(), destination_, source_, storage().size());
    } catch (const Error& e) {
      throw Error(e.code(), "P2PMessageQueue", source_,
                  "mapping the ring in device " + std::to_string(destination_) + "'s memory for device " +
                      std::to_string(source_) + ": " +
                      (e.code() == errc::invalid_state
                           ? "peer access from device " + std::to_string(source_) + " to device " +
                                 std::to_string(destination_) +
                                 ", which this construction had just enabled, was disabled before the ring was "
                                 "mapped (PeerMemory::disable_peer_access on another thread); nothing was built"
                           : e.call() + ": " + e.detail()));
    }
  }

  // The ring in the memory mode_ needs, ready for use. `direct_why`: why adaptive mode did not keep
  // the direct ring (it did not fit, or enabling peer access failed); where the staged one does not
  // fit either, out_of_memory says both (no ring is held, peer access was not enabled).
  void allocate_ring(const P2PQueueOptions& options, const std::string* direct_why = nullptr) {
    try {
      allocate_storage(options);
    } catch (const Error& e) {
      if (direct_why == nullptr || e.code() != errc::out_of_memory) throw;
      detail::throw_neither_ring_fits(destination_, *direct_why, e);
    }
    if (kernel_storage_) place_kernel_ring(options.capacity);
  }

  // The ring's memory. Host-staged: the source's kernels produce into the destination's pinned
  // memory, and each side is checked against its own device (as resolve_p2p_mode did).
  void allocate_storage(const P2PQueueOptions& options) {
    const bool staged = mode_ != P2PTransferMode::direct_p2p;
    const QueueOptions queue_options{
        .capacity = options.capacity,
        .policy = options.policy,
        .memory = staged ? QueueMemory::pinned : QueueMemory::device,
        .device = destination_,
        .detailed_statistics = options.detailed_statistics,
        .producers = options.producers,
        .consumers = options.consumers,
        .producer_device = staged ? source_ : -1};
    // A ring that does not fit is out_of_memory named by this class, saying which ring in which
    // memory (detail::ring_storage's wording, which the queue's own error carries).
    if (queue_options.memory == QueueMemory::device &&
        !QueueStorage::host_accessible_memory(QueueMemory::device, destination_)) {
      MpmcQueue<T>::validate(queue_options);  // GPU memory: a bare ring for kernels (see top)
      kernel_storage_.emplace(detail::ring_storage("P2PMessageQueue", QueueMemory::device, destination_,
                                                   options.capacity, ring_type::bytes_for(options.capacity)));
    } else {
      try {
        queue_ = std::make_unique<MpmcQueue<T>>(queue_options);
      } catch (const Error& e) {
        if (e.code() != errc::out_of_memory) throw;
        throw Error(e.code(), "P2PMessageQueue", destination_, e.detail());
      }
      ring_ = queue_->ring();
    }
  }

  // The ring in GPU memory: the stream count(), shutdown(), ... copy on, then the empty ring
  // written with it. After the ring is allocated (detail::ring_storage words its out_of_memory),
  // so that a stream that cannot start is not reported as a ring that did not fit; errors name this class (the stream's call is in the detail). A
  // throw leaves nothing behind: the members free the memory (peer access is not enabled yet).
  void place_kernel_ring(std::size_t capacity) {
    const auto failed = [](const char* what, const Error& e) {
      return Error(e.code(), "P2PMessageQueue", e.device(), std::string(what) + " (" + e.call() + "): " + e.detail());
    };
    try {
      control_stream_.emplace(destination_);
    } catch (const Error& e) {
      throw failed("starting the stream the queue copies its ring's control words on", e);
    }
    // Untested: only CUDA fails here (the copy, or the wait for it). On the host backend the copy
    // is a task for the stream's running worker and starts no thread, so no test seam reaches it.
    try {
      ring_ = initialize_ring<ring_type>(*kernel_storage_, capacity, 0, &*control_stream_);
    } catch (const Error& e) {
      throw failed("writing the empty ring into the destination's memory", e);
    }
  }

  detail::ring_control download_control() const {
    detail::ring_control control;  // both indices in one copy from the GPU
    kernel_storage_->download(&control, sizeof control, 0, *control_stream_);
    return control;
  }

  enum class host_role : std::uint8_t { producer, consumer, either };

  // The queue a host-side call works on: refused when the ring is GPU memory, or when the call's
  // side is declared for kernels only (named here, with this class's call name).
  MpmcQueue<T>& host_queue(const char* call, host_role role) const {
    if (queue_ != nullptr && role == host_role::producer && !has_host(queue_->options().producers)) {
      detail::throw_host_not_a_user(call, "producers", source_, kernel_view(host_role::producer));
    }
    if (queue_ != nullptr && role == host_role::consumer && !has_host(queue_->options().consumers)) {
      detail::throw_host_not_a_user(call, "consumers", destination_, kernel_view(host_role::consumer));
    }
    if (queue_ == nullptr) {
      throw Error(errc::unsupported, call, destination_,
                  "this queue's ring is CUDA device memory (direct_p2p mode), which host threads cannot access: "
                  "kernels send and receive through source_ring() / destination_ring(); for a host-side sender "
                  "or receiver declare P2PQueueOptions::producers / consumers with QueueUsers::host (adaptive then "
                  "chooses P2PTransferMode::host_staged)");
    }
    return *queue_;
  }
  // What kernels work a side declared kernels only through, for host_queue's error: kernel_ring()
  // in host_staged mode where it accepts the sides (the other not host_and_kernels), else the
  // side's own view of the ring.
  const char* kernel_view(host_role role) const noexcept {
    const bool producer = role == host_role::producer;
    const QueueUsers other = producer ? queue_->options().consumers : queue_->options().producers;
    if (mode_ == P2PTransferMode::direct_p2p) {
      return producer ? "source_ring() (direct_p2p mode)" : "destination_ring() (direct_p2p mode)";
    }
    if (other != QueueUsers::host_and_kernels) return "kernel_ring() (host_staged mode)";
    return producer ? "source_ring()" : "destination_ring()";
  }
  const QueueStorage& storage() const noexcept { return queue_ != nullptr ? queue_->storage() : *kernel_storage_; }

  int source_;
  int destination_;
  bool direct_available_;
  P2PTransferMode mode_;
  std::size_t capacity_;
  FullPolicy policy_;
  QueueUsers producers_;
  PeerMemory mapper_;                           // owns source_mapping_ (for the queue's whole life)
  std::unique_ptr<MpmcQueue<T>> queue_;         // host-reachable ring (every mode but CUDA direct_p2p)
  std::optional<QueueStorage> kernel_storage_;  // else: the ring in the destination GPU's memory
  mutable std::optional<Stream> control_stream_;  // ... and the stream its control words are copied on
  ring_type ring_;
  void* source_mapping_ = nullptr;
};

}  // namespace ringkernel
