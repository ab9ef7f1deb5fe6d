// Copyright RingKernel authors.
// ringkernel::P2PMessageQueue<T> (DESIGN.md §6; IP2PMessageQueue<T> of the reference): a message
// queue from a source device to a destination device, on one MPMC ring whose placement follows
// the transfer mode:
//   direct_p2p:  the ring lives in the destination's memory; the source reaches it through a
//                peer mapping (PeerMemory::enable_peer_access + map_peer_memory), so a sender on
//                the source writes straight over the link;
//   host_staged: the ring lives in pinned host memory mapped for both devices;
//   adaptive:    direct_p2p when PeerMemory::can_access_peer(source, destination), else host_staged.
// The decision uses the backend's real capability (the host backend: its configured topology);
// transfer_mode() reports the mode in force. Host threads use send/receive; kernels use
// source_ring() / destination_ring() (the same ring seen from each device's address space).
// Limitation: with the CUDA backend in direct_p2p mode the ring is GPU memory, which host threads
// cannot access: construction then fails with errc::unsupported (use host_staged for host-side
// endpoints); the host backend supports every mode from host threads.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <stop_token>
#include <string>

#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/queue/message_queue.h"

namespace ringkernel {

enum class P2PTransferMode : std::uint8_t { direct_p2p, host_staged, adaptive };

inline const char* to_string(P2PTransferMode m) noexcept {
  switch (m) {
    case P2PTransferMode::direct_p2p: return "direct_p2p";
    case P2PTransferMode::host_staged: return "host_staged";
    case P2PTransferMode::adaptive: return "adaptive";
  }
  return "invalid";
}

struct P2PQueueOptions {
  std::size_t capacity = 1024;  // power of two >= 2
  FullPolicy policy = FullPolicy::block;
  P2PTransferMode mode = P2PTransferMode::adaptive;
  bool detailed_statistics = false;
};

template <class T>
class P2PMessageQueue {
 public:
  using ring_type = mpmc_ring<T, atomic_scope::system>;
  using duration = std::chrono::nanoseconds;

  /// `peers` must outlive the queue (it owns the peer mapping of direct_p2p mode).
  P2PMessageQueue(PeerMemory& peers, int source_device, int destination_device, P2PQueueOptions options = {})
      : peers_(&peers),
        source_(source_device),
        destination_(destination_device),
        direct_available_(checked_can_access(peers, source_device, destination_device)),
        mode_(choose_mode(options.mode)),
        queue_(QueueOptions{.capacity = options.capacity,
                            .policy = options.policy,
                            .memory = mode_ == P2PTransferMode::direct_p2p ? QueueMemory::device : QueueMemory::pinned,
                            .device = destination_device,
                            .detailed_statistics = options.detailed_statistics}) {
    if (mode_ == P2PTransferMode::direct_p2p) {
      const std::size_t bytes = queue_.storage().size();
      source_mapping_ = peers.map_peer_memory(queue_.storage().data(), destination_, source_, bytes);
    }
  }
  ~P2PMessageQueue() {
    if (source_mapping_ != nullptr) {
      try {
        peers_->unmap_peer_memory(source_mapping_, source_);
      } catch (...) {  // the PeerMemory was reconfigured under us; nothing left to release
      }
    }
  }
  P2PMessageQueue(const P2PMessageQueue&) = delete;
  P2PMessageQueue& operator=(const P2PMessageQueue&) = delete;

  SendResult send(const T& m, duration timeout = default_queue_timeout, std::stop_token stop = {}) {
    return queue_.send(m, timeout, std::move(stop));
  }
  SendResult try_send(const T& m) { return queue_.try_send(m); }
  BatchSendResult send_batch(std::span<const T> ms, duration timeout = default_queue_timeout, std::stop_token stop = {}) {
    return queue_.send_batch(ms, timeout, std::move(stop));
  }
  ReceiveStatus receive(T& out, duration timeout = default_queue_timeout, std::stop_token stop = {}) {
    return queue_.receive(out, timeout, std::move(stop));
  }
  ReceiveStatus try_receive(T& out) { return queue_.try_receive(out); }
  BatchReceiveResult receive_batch(std::span<T> out, duration timeout = default_queue_timeout, std::stop_token stop = {}) {
    return queue_.receive_batch(out, timeout, std::move(stop));
  }
  /// The oldest message without removing it (the queue's single receiver only).
  bool try_peek(T& out) const { return queue_.try_peek(out); }
  std::size_t clear() { return queue_.clear(); }
  void shutdown() noexcept { queue_.shutdown(); }
  void set_eviction_handler(std::function<void(const T&)> handler) { queue_.set_eviction_handler(std::move(handler)); }

  QueueStatistics statistics() const { return queue_.statistics(); }
  std::size_t capacity() const noexcept { return queue_.capacity(); }
  std::size_t count() const noexcept { return queue_.count(); }
  bool is_empty() const noexcept { return queue_.is_empty(); }
  bool is_full() const noexcept { return queue_.is_full(); }
  /// The mode in force: direct_p2p or host_staged (adaptive is resolved at construction).
  P2PTransferMode transfer_mode() const noexcept { return mode_; }
  int source_device() const noexcept { return source_; }
  int destination_device() const noexcept { return destination_; }
  /// The pair supports direct peer access (source -> destination), whatever mode was chosen.
  bool direct_p2p_available() const noexcept { return direct_available_; }

  /// The ring as kernels on the source device address it (the peer mapping in direct_p2p mode).
  ring_type source_ring() const noexcept {
    return source_mapping_ != nullptr ? ring_type(source_mapping_, capacity()) : queue_.ring();
  }
  /// The ring as kernels on the destination device (and host threads) address it.
  ring_type destination_ring() const noexcept { return queue_.ring(); }

 private:
  static bool checked_can_access(PeerMemory& peers, int source, int destination) {
    if (source == destination) {
      throw Error(errc::invalid_argument, "P2PMessageQueue", source,
                  "source and destination are the same device; a queue on one device is an MpmcQueue");
    }
    return peers.can_access_peer(source, destination);
  }

  P2PTransferMode choose_mode(P2PTransferMode requested) {
    if (requested == P2PTransferMode::host_staged) return requested;
    if (!direct_available_) {
      if (requested == P2PTransferMode::adaptive) return P2PTransferMode::host_staged;
      throw Error(errc::peer_access_unsupported, "P2PMessageQueue", source_,
                  "direct_p2p requested but device " + std::to_string(source_) + " cannot access device " +
                      std::to_string(destination_) + "'s memory (" +
                      to_string(peers_->capability(source_, destination_).access) +
                      "); use P2PTransferMode::host_staged or adaptive");
    }
    peers_->enable_peer_access(source_, destination_);
    return P2PTransferMode::direct_p2p;
  }

  PeerMemory* peers_;
  int source_;
  int destination_;
  bool direct_available_;
  P2PTransferMode mode_;
  MpmcQueue<T> queue_;
  void* source_mapping_ = nullptr;
};

}  // namespace ringkernel
