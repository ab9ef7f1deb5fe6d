// Copyright RingKernel authors.
// Kernels of the raw-CUDA peers (raw_ping_pong.cu): the least a persistent kernel can do to pass a
// 64-byte message and get one back, with no ring. A mailbox is one message and one sequence word,
// each on a 128-byte line of its own; the sender writes the message, then stores the sequence
// number with release; the receiver polls the sequence word with acquire loads, then reads the
// message. The atomics are RingKernel's atomic_word (cuda::atomic_ref on the device,
// std::atomic_ref on the host): system scope for pinned host memory, device scope for memory of one
// GPU. Each kernel gives up (device_bench_message.cuh's budgets, %globaltimer deadlines) as the
// queue rows' kernels do.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "device_bench_message.cuh"
#include "ringkernel/deadline.h"
#include "ringkernel/detail/atomic_word.h"

namespace bench_queue_device {

struct alignas(128) Mailbox {
  alignas(128) Msg64 msg;
  alignas(128) std::uint64_t seq;  // the number of messages written so far
};
// One allocation: the request (host or ping -> echo or pong) and the answer (back).
struct MailboxPair {
  Mailbox request;
  Mailbox answer;
};
static_assert(sizeof(Mailbox) == 256 && sizeof(MailboxPair) == 512);

using ringkernel::detail::order;
template <ringkernel::atomic_scope Scope>
using seq_word = ringkernel::detail::atomic_word<Scope>;

// A message in registers as four 16-byte parts, moved with four 16-byte loads or stores each way
// (a mailbox's message line is 128-byte aligned). Written out in PTX: for a plain copy nvcc emits 8
// word accesses, or v2 loads of which it then uses half and loads the other half again (CUDA 13.0,
// "used_bytes_mask"). The addresses are converted to the global window (cvta.to.global): PTX's
// ld.global/st.global take global addresses, which generic ones only happen to equal. Weak accesses, as the struct copy would be; the "memory" clobber keeps them
// after the acquire load before them and before the release store after them in program order.
// words[0] = part[0].x, words[1] = part[0].y.
struct RawMessage {
  ulonglong2 part[4];
};
__device__ inline RawMessage load_message(const Mailbox& box) {
  RawMessage m;
  for (int i = 0; i < 4; ++i) {
    asm volatile("ld.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(m.part[i].x), "=l"(m.part[i].y)
                 : "l"(__cvta_generic_to_global(box.msg.words + 2 * i))
                 : "memory");
  }
  return m;
}
__device__ inline void store_message(Mailbox& box, const RawMessage& m) {
  for (int i = 0; i < 4; ++i) {
    asm volatile("st.global.v2.u64 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(box.msg.words + 2 * i)),
                 "l"(m.part[i].x), "l"(m.part[i].y)
                 : "memory");
  }
}

// Echoes request n as answer n until a message with words[1] == 1 (stop), or until no request came
// for idle_budget_us; boxes: pinned host memory (system scope), as the queue rows' rings.
__global__ void raw_echo(MailboxPair* boxes) {
  const seq_word<ringkernel::atomic_scope::system> request(boxes->request.seq), answer(boxes->answer.seq);
  for (std::uint64_t n = 1;; ++n) {
    const auto give_up = ringkernel::deadline::after_us(idle_budget_us);
    while (request.load(order::acquire) < n) {
      if (give_up.passed()) return;
    }
    const RawMessage m = load_message(boxes->request);
    store_message(boxes->answer, m);
    answer.store(n, order::release);
    if (m.part[0].y == 1) return;  // words[1]: stop
  }
}

// As ping<Ring> / pong<Ring> (device_queue_kernels.cuh), through a mailbox pair in device memory:
// ping sends round r as request r + 1 and waits for answer r + 1; records PingOutput as ping<Ring>
// does (the same clock64 reads and per-round store).
__global__ void raw_ping(MailboxPair* boxes, std::uint64_t rounds, PingOutput out) {
  const seq_word<ringkernel::atomic_scope::device> request(boxes->request.seq), answer(boxes->answer.seq);
  RawMessage m{};
  const auto give_up = ringkernel::deadline::after_us(total_budget_us);
  const long long c0 = clock64();
  const std::uint64_t g0 = globaltimer_ns();
  std::uint64_t r = 0, wrong = 0;
  for (; r < rounds; ++r) {
    m.part[0].x = r;  // words[0]
    const long long t0 = clock64();
    store_message(boxes->request, m);
    request.store(r + 1, order::release);
    bool stuck = false;
    while (answer.load(order::acquire) < r + 1 && !(stuck = give_up.passed())) {
    }
    if (stuck) break;
    m = load_message(boxes->answer);
    out.round_cycles[r] = static_cast<unsigned long long>(clock64() - t0);
    if (m.part[0].x != r) ++wrong;
  }
  out.completed[2] = static_cast<unsigned long long>(clock64() - c0);
  out.completed[3] = globaltimer_ns() - g0;
  out.completed[0] = r;
  out.completed[1] = wrong;
}
__global__ void raw_pong(MailboxPair* boxes, std::uint64_t rounds) {
  const seq_word<ringkernel::atomic_scope::device> request(boxes->request.seq), answer(boxes->answer.seq);
  const auto give_up = ringkernel::deadline::after_us(total_budget_us);
  for (std::uint64_t r = 1; r <= rounds; ++r) {
    while (request.load(order::acquire) < r) {
      if (give_up.passed()) return;
    }
    store_message(boxes->answer, load_message(boxes->request));
    answer.store(r, order::release);
  }
}

}  // namespace bench_queue_device
