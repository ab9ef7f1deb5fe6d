// Copyright RingKernel authors.
#include "staging.h"

#include <algorithm>

#include "device_pair.h"
#include "registry.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

StagingPipeline::StagingPipeline(int src_device, int dst_device, std::size_t chunk_bytes)
    : src_device_(src_device),
      chunk_bytes_(chunk_bytes),
      backend_(Registry::instance().resolve(src_device, call).backend),
      staging_{PinnedBuffer(src_device, chunk_bytes), PinnedBuffer(src_device, chunk_bytes)},
      to_host_(src_device),
      from_host_(dst_device),
      start_on_src_(src_device),
      start_on_dst_(dst_device),
      staged_{Event(src_device), Event(src_device)},
      delivered_{Event(dst_device), Event(dst_device)} {
  // Each member resolved its id on its own: a configure_host_backend() between two of them leaves
  // a mix of two configurations, which is refused here, before any chunk is queued (not by the
  // first Event::record or Stream::wait, nor copied by a stream into another's pinned memory).
  bool one_configuration = to_host_.backend() == backend_ && from_host_.backend() == backend_ &&
                           start_on_src_.backend() == backend_ && start_on_dst_.backend() == backend_;
  for (std::size_t b = 0; b < 2; ++b) {
    one_configuration = one_configuration && staged_[b].backend() == backend_ &&
                        delivered_[b].backend() == backend_ &&
                        (chunk_bytes == 0 || backend_->owns_pinned(staging_[b].data()));
  }
  if (!one_configuration) throw_overtaken(call, src_device, nothing_copied);
}

StagingPipeline::~StagingPipeline() {
  // Each chunk leaves the source on to_host_ and enters the destination on from_host_, which waits
  // for it: from_host_ idle implies to_host_ idle too, which is synchronised all the same.
  for (Stream* s : {&from_host_, &to_host_}) {
    try {
      s->synchronize();
    } catch (...) {  // a sticky CUDA error, say: a destructor does not throw
    }
  }
}

CopyResult StagingPipeline::enqueue(Stream& caller, void* dst, const void* src, std::size_t bytes) {
  CopyResult result{CopyPath::host_staged, bytes, 0};
  if (bytes == 0) return result;
  auto* out = static_cast<std::byte*>(dst);
  const auto* in = static_cast<const std::byte*>(src);

  std::lock_guard lock(mutex_);
  Event& start = caller.device() == src_device_ ? start_on_src_ : start_on_dst_;
  start.record(caller);
  to_host_.wait(start);
  std::size_t b = 0;
  for (std::size_t offset = 0; offset < bytes; offset += chunk_bytes_) {
    const std::size_t n = std::min(chunk_bytes_, bytes - offset);
    b = result.chunks++ & 1u;
    to_host_.wait(delivered_[b]);  // the previous chunk through buffer b has left it
    backend_->copy_async(to_host_.impl(), staging_[b].data(), in + offset, n);
    staged_[b].record(to_host_);
    from_host_.wait(staged_[b]);
    backend_->copy_async(from_host_.impl(), out + offset, staging_[b].data(), n);
    delivered_[b].record(from_host_);
  }
  caller.wait(delivered_[b]);  // from_host_ is in order: its last chunk implies all before
  return result;
}

}  // namespace ringkernel::detail
