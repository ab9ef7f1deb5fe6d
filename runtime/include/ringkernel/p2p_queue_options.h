// Copyright RingKernel authors.
// Options of P2PMessageQueue<T> and the choice of its transfer mode (docs/messaging.md §5):
//   direct_p2p:  the ring lives in the destination's memory; the source reaches it through a peer
//                mapping. Possible when the source can access the destination's memory, the link
//                has native atomics if kernels on the source produce (their claims go over the
//                link), and - on the CUDA backend, whose device memory host threads cannot touch -
//                no side is declared for host threads (and the ring fits the destination's memory,
//                and enabling peer access succeeds);
//   host_staged: the ring lives in pinned host memory mapped for both devices;
//   adaptive:    direct_p2p where possible, host_staged otherwise (also when enabling peer access
//                fails or the ring does not fit the destination's memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ringkernel/queue/queue_types.h"
#include "ringkernel/queue/queue_users.h"

namespace ringkernel {

class Error;
class PeerMemory;

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
  QueueUsers producers = QueueUsers::host_and_kernels;  // on the source: host threads (send*), kernels (source_ring())
  QueueUsers consumers = QueueUsers::host_and_kernels;  // on the destination: host threads, kernels (destination_ring())
};

namespace detail {

/// The mode a P2P queue from `source` to `destination` uses for `options` (direct_p2p or
/// host_staged), after checking that the ring's memory can serve both declared sides. Changes
/// nothing: the queue enables peer access (enable_direct_access) once its ring is allocated.
/// Throws Error: invalid_argument (source == destination, bad users, a mode that is no
/// P2PTransferMode), unsupported (devices of two backends), peer_access_unsupported (direct_p2p
/// requested where it is impossible: says why), unsupported (host_staged sides the pinned memory
/// cannot serve).
P2PTransferMode resolve_p2p_mode(PeerMemory& peers, int source, int destination, const P2PQueueOptions& options);

/// Enables peer access source -> destination for a ring resolve_p2p_mode placed directly:
/// direct_p2p. If enabling fails (CUDA: cudaDeviceEnablePeerAccess refusing, e.g. too many peers),
/// adaptive mode falls back: host_staged where the pinned memory can serve both sides (else an
/// Error naming both reasons), `direct_why` then saying why not direct_p2p (for
/// throw_neither_ring_fits); an explicit direct_p2p throws the failure, naming P2PMessageQueue.
P2PTransferMode enable_direct_access(PeerMemory& peers, int source, int destination, const P2PQueueOptions& options,
                                     std::string& direct_why);

/// The ring resolve_p2p_mode placed directly did not fit the destination's memory (`failure`:
/// out_of_memory, its detail saying which ring in which memory). Adaptive mode falls back as
/// enable_direct_access does, setting `direct_why` likewise; an explicit direct_p2p throws `failure`
/// again (out_of_memory, named P2PMessageQueue), its detail ending in a hint naming host_staged.
P2PTransferMode direct_ring_did_not_fit(int source, int destination, const P2PQueueOptions& options,
                                        const Error& failure, std::string& direct_why);

/// Adaptive mode's host_staged ring, after either fallback above, did not fit pinned memory either
/// (`staged_failure`): throws out_of_memory named P2PMessageQueue, saying both (`direct_why`: the
/// fallback's reason).
[[noreturn]] void throw_neither_ring_fits(int destination, const std::string& direct_why, const Error& staged_failure);

}  // namespace detail
}  // namespace ringkernel
