// Copyright RingKernel authors.
// A second raw-CUDA floor for the host -> GPU -> host round trip (raw_ping_pong.cu's
// BM_Raw_HostGpuHostLLPingPong): the same 64-byte exchange through pinned memory, but with a flag
// in every 8-byte word instead of one sequence word after the message, as NCCL's LL protocol
// passes small messages. Its question: how far below raw_ping_pong.cuh's flag exchange (3.9 us on
// an H200 over PCIe, twice the issue's 2 us goal) a design that needs neither of that exchange's
// dependent steps gets:
//   - the flag exchange's kernel polls the sequence word (one PCIe read per poll) and only then
//     reads the message (another read); here every poll reads the whole message, 8 independent
//     16-byte loads in flight at once, and the message is there when every word's flag is;
//   - its answer is the message, then a system-scope release store (a fence at system scope before
//     the store); here the answer is 8 plain 16-byte stores, no fence: each word carries its own
//     flag, so no word needs to be ordered after another.
// A word is (flag << 32) | 4 bytes of the message; the flag is the exchange's number k (1, 2, ..;
// memory starts zeroed, so no word of an earlier exchange, or of none, carries k). A 64-byte message
// takes 16 words, 128 bytes: twice the bytes on the link, for no ordering between them. Each word
// is single-copy atomic on both sides (aligned 8 bytes: the host's relaxed atomics, the device's
// volatile accesses, each element of a vector access being its own 8-byte access in PTX's model),
// so a reader sees each word either old or new, never torn, and takes the message only once all 16
// are new. Not a ring: a mailbox for one message each way, as the flag exchange's.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "device_bench_message.cuh"
#include "ringkernel/deadline.h"
#include "ringkernel/detail/atomic_word.h"

namespace bench_queue_device {

constexpr int ll_words = 16;  // 8-byte words of an LL line: 4 bytes of a Msg64 each

struct alignas(128) LLMailbox {
  std::uint64_t word[ll_words];
};
// One allocation: the request (host -> echo) and the answer (back), a 128-byte line each.
struct LLMailboxPair {
  LLMailbox request;
  LLMailbox answer;
};
static_assert(sizeof(LLMailbox) == 128 && sizeof(LLMailboxPair) == 256);

// Word i of message m under flag k: bytes 4i .. 4i + 3 of m (words[i / 2]'s low half for even i).
__host__ __device__ inline std::uint64_t ll_word(const Msg64& m, int i, std::uint32_t k) {
  return (std::uint64_t{k} << 32) | static_cast<std::uint32_t>(m.words[i / 2] >> (32 * (i % 2)));
}
// The message the 16 words hold, if every one carries flag k (else false, m unspecified).
__host__ __device__ inline bool ll_message(const std::uint64_t (&w)[ll_words], std::uint32_t k, Msg64& m) {
  bool all = true;
  for (int i = 0; i < ll_words; i += 2) {
    all &= (w[i] >> 32) == k && (w[i + 1] >> 32) == k;
    m.words[i / 2] = (w[i] & 0xffffffffu) | (w[i + 1] << 32);
  }
  return all;
}

// Host side: relaxed atomics on the pinned words (the kernel's accesses are system-wide).
inline void ll_send(LLMailbox& box, const Msg64& m, std::uint32_t k) {
  for (int i = 0; i < ll_words; ++i) {
    ringkernel::detail::atomic_word<ringkernel::atomic_scope::system>(box.word[i])
        .store(ll_word(m, i, k), ringkernel::detail::order::relaxed);
  }
}
inline bool ll_receive(LLMailbox& box, std::uint32_t k, Msg64& m) {
  std::uint64_t w[ll_words];
  for (int i = 0; i < ll_words; ++i) {
    w[i] = ringkernel::detail::atomic_word<ringkernel::atomic_scope::system>(box.word[i])
               .load(ringkernel::detail::order::relaxed);
  }
  return ll_message(w, k, m);
}

#ifdef __CUDACC__
// Device side: 8 volatile 16-byte loads / stores of global addresses (cvta.to.global, as
// raw_ping_pong.cuh's), written out in PTX so that they stay 16-byte accesses. The loads do not
// depend on each other, so all 8 are in flight at once: one poll costs one read of the link.
__device__ inline bool ll_device_receive(const LLMailbox& box, std::uint32_t k, Msg64& m) {
  std::uint64_t w[ll_words];
  for (int i = 0; i < ll_words; i += 2) {
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(w[i]), "=l"(w[i + 1])
                 : "l"(__cvta_generic_to_global(box.word + i))
                 : "memory");
  }
  return ll_message(w, k, m);
}
__device__ inline void ll_device_send(LLMailbox& box, const Msg64& m, std::uint32_t k) {
  for (int i = 0; i < ll_words; i += 2) {
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(box.word + i)),
                 "l"(ll_word(m, i, k)), "l"(ll_word(m, i + 1, k))
                 : "memory");
  }
}

// Echoes request k as answer k (k = 1, 2, ..) until a message with words[1] == 1 (stop), or until
// no request came for idle_budget_us; boxes: pinned host memory, as raw_echo's.
__global__ void raw_ll_echo(LLMailboxPair* boxes) {
  Msg64 m{};
  for (std::uint32_t k = 1;; ++k) {
    const auto give_up = ringkernel::deadline::after_us(idle_budget_us);
    while (!ll_device_receive(boxes->request, k, m)) {
      if (give_up.passed()) return;
    }
    ll_device_send(boxes->answer, m, k);
    if (m.words[1] == 1) return;  // stop
  }
}
#endif

}  // namespace bench_queue_device
