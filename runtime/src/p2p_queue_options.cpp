// Copyright RingKernel authors.
// The transfer mode of a P2P queue: direct where the pair, its link and the declared users allow
// it, host-staged otherwise (see ringkernel/p2p_queue_options.h).
#include "ringkernel/p2p_queue_options.h"

#include <string>

#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/queue/queue_storage.h"

namespace ringkernel::detail {

namespace {

constexpr const char* call = "P2PMessageQueue";

struct obstacle {
  errc code = errc::unsupported;
  std::string why;  // empty: direct_p2p is possible
};

// What, if anything, rules out a ring in the destination's memory for these options.
obstacle direct_obstacle(PeerMemory& peers, int source, int destination, const P2PQueueOptions& o) {
  const std::string s = std::to_string(source), d = std::to_string(destination);
  // One query (one lookup of the pair): the access it names and the atomics are of the same
  // configuration, whatever another thread's configure_host_backend() does meanwhile.
  const auto link = peers.capability(source, destination);
  if (!link.peer_access_supported) {  // can_access_peer(source, destination): source != destination here
    return {errc::peer_access_unsupported,
            "device " + s + " cannot access device " + d + "'s memory (" + to_string(link.access) + ")"};
  }
  if (has_kernels(o.producers) && !link.native_atomics) {
    return {errc::peer_access_unsupported,
            "the link from device " + s + " to device " + d +
                " has no native atomics: kernels on device " + s + " would claim ring positions in device " + d +
                "'s memory with a read and a separate write, so two producers could take the same slot"};
  }
  if (!QueueStorage::host_accessible_memory(QueueMemory::device, destination) &&
      (has_host(o.producers) || has_host(o.consumers))) {
    return {errc::unsupported, "the ring would be device " + d +
                                   "'s GPU memory, which host threads cannot access, but producers = QueueUsers::" +
                                   to_string(o.producers) + " and consumers = QueueUsers::" + to_string(o.consumers) +
                                   " include host threads (declare both QueueUsers::kernels for a kernel-only queue)"};
  }
  return {};
}

// Host-staged placement, checked side by side against pinned memory (the producers from the
// source's kernels and host threads, the consumers from the destination's). `direct_why`: why
// adaptive mode did not place the ring directly (empty when host_staged was asked for).
P2PTransferMode staged(int source, int destination, const P2PQueueOptions& o, const std::string& direct_why) {
  try {
    check_ring_side(call, {"producers", o.producers, true, source}, QueueMemory::pinned);
    check_ring_side(call, {"consumers", o.consumers, true, destination}, QueueMemory::pinned);
  } catch (const Error& e) {
    if (o.mode != P2PTransferMode::adaptive) throw;
    // The caller asked for neither placement: say why the direct one was not taken either.
    throw Error(e.code(), e.call(), e.device(),
                "adaptive mode found neither placement possible: direct_p2p because " + direct_why +
                    "; host_staged because " + e.detail());
  }
  return P2PTransferMode::host_staged;
}

}  // namespace

P2PTransferMode resolve_p2p_mode(PeerMemory& peers, int source, int destination, const P2PQueueOptions& o) {
  if (source == destination) {
    throw Error(errc::invalid_argument, call, source,
                "source and destination are the same device; a queue on one device is an MpmcQueue");
  }
  if (device(source).backend != device(destination).backend) {
    throw Error(errc::unsupported, call, source,
                "device " + std::to_string(source) + " (" + to_string(device(source).backend) + ") and device " +
                    std::to_string(destination) + " (" + to_string(device(destination).backend) +
                    ") belong to different backends: no memory both can reach holds the ring");
  }
  if (o.mode != P2PTransferMode::adaptive && o.mode != P2PTransferMode::direct_p2p &&
      o.mode != P2PTransferMode::host_staged) {
    throw Error(errc::invalid_argument, call, source,
                "P2PQueueOptions::mode " + std::to_string(static_cast<int>(o.mode)) + " is no P2PTransferMode");
  }
  obstacle direct;
  if (o.mode != P2PTransferMode::host_staged) {
    direct = direct_obstacle(peers, source, destination, o);
    if (direct.why.empty()) return P2PTransferMode::direct_p2p;
    if (o.mode == P2PTransferMode::direct_p2p) {
      throw Error(direct.code, call, source,
                  "direct_p2p requested but " + direct.why + "; use P2PTransferMode::host_staged or adaptive");
    }
  }
  return staged(source, destination, o, direct.why);
}

P2PTransferMode enable_direct_access(PeerMemory& peers, int source, int destination, const P2PQueueOptions& o,
                                     std::string& direct_why) {
  try {
    peers.enable_peer_access(source, destination);
    return P2PTransferMode::direct_p2p;
  } catch (const Error& e) {
    const std::string why = "enabling peer access from device " + std::to_string(source) + " to device " +
                            std::to_string(destination) + " failed (" + e.call() + ": " + e.detail() + ")";
    if (o.mode != P2PTransferMode::adaptive) {
      throw Error(e.code(), call, source, "direct_p2p requested but " + why + "; use P2PTransferMode::host_staged or adaptive");
    }
    const P2PTransferMode mode = staged(source, destination, o, why);
    direct_why = why;
    return mode;
  }
}

P2PTransferMode direct_ring_did_not_fit(int source, int destination, const P2PQueueOptions& o, const Error& failure,
                                        std::string& direct_why) {
  if (o.mode != P2PTransferMode::adaptive) {
    throw Error(failure.code(), call, failure.device(),
                failure.detail() +
                    "; P2PTransferMode::host_staged (or adaptive, which falls back to it) places the ring in pinned "
                    "host memory instead");
  }
  std::string why = "the ring did not fit device " + std::to_string(destination) + "'s memory (" + failure.detail() + ")";
  const P2PTransferMode mode = staged(source, destination, o, why);
  direct_why = std::move(why);
  return mode;
}

void throw_neither_ring_fits(int destination, const std::string& direct_why, const Error& staged_failure) {
  throw Error(errc::out_of_memory, call, destination,
              "adaptive mode found neither placement possible: direct_p2p because " + direct_why +
                  "; host_staged because the ring did not fit pinned host memory either (" + staged_failure.detail() +
                  ")");
}

}  // namespace ringkernel::detail
