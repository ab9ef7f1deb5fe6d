// Copyright RingKernel authors.
// PeerMemory: peer access control, checked peer copies and path selection, peer mappings.
#include "ringkernel/peer_memory.h"

#include <algorithm>
#include <compare>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pointer_text.h"
#include "registry.h"
#include "ringkernel/error.h"
#include "staging.h"

namespace ringkernel {

const char* to_string(CopyPath p) noexcept {
  switch (p) {
    case CopyPath::same_device: return "same-device";
    case CopyPath::direct_peer: return "direct-peer";
    case CopyPath::host_staged: return "host-staged";
  }
  return "unknown";
}

namespace {

using detail::DeviceRef;
using detail::hex;
using detail::Registry;

struct Pair {
  DeviceRef src;
  DeviceRef dst;
};

/// Both devices, which must belong to one backend.
Pair resolve_pair(int src, int dst, const char* call) {
  Pair p{Registry::instance().resolve(src, call), Registry::instance().resolve(dst, call)};
  if (p.src.backend != p.dst.backend) {
    // Two host devices of two configurations: configure_host_backend() ran between the two lookups.
    const bool hosts = p.src.backend->kind() == p.dst.backend->kind();
    throw Error(errc::unsupported, call, src,
                "devices " + std::to_string(src) + " (" + to_string(p.src.backend->kind()) + ") and " +
                    std::to_string(dst) + " (" + to_string(p.dst.backend->kind()) + ") belong to different " +
                    (hosts ? "host configurations (configure_host_backend() replaced it during this call)"
                           : "backends; there is no path between them"));
  }
  return p;
}

bool overlaps(const void* a, const void* b, std::size_t n) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return n != 0 && x < y + n && y < x + n;
}

/// The path a copy between the pair takes now.
CopyPath path_for(const Pair& p) {
  if (p.src.id == p.dst.id) return CopyPath::same_device;
  auto& b = *p.src.backend;
  return b.peer_access_enabled(p.src.ordinal, p.dst.ordinal) ||
                 b.peer_access_enabled(p.dst.ordinal, p.src.ordinal)
             ? CopyPath::direct_peer
             : CopyPath::host_staged;
}

/// check_device_range, but memory of another backend or of a replaced host configuration (a buffer
/// whose device() still says the id) is named as such (Registry::foreign_memory), not "not memory of".
void check_range(const DeviceRef& d, const void* p, std::size_t bytes, const char* call, const char* what) {
  try {
    d.backend->check_device_range(d.ordinal, p, bytes, call, what, d.id);
  } catch (const Error& e) {
    const auto elsewhere = e.code() == errc::invalid_argument && p ? Registry::instance().foreign_memory(p, d.backend.get()) : "";
    if (elsewhere.empty()) throw;
    throw Error(errc::invalid_argument, call, d.id,
                std::string(what) + " " + hex(p) + " is " + elsewhere + ", not memory of device " + std::to_string(d.id) +
                    (d.backend->kind() == Backend::host ? " of the current host configuration" : ""));
  }
}

/// The live peer mappings of every PeerMemory: peer access is process-wide state, so
/// disable_peer_access must see the mappings another PeerMemory made (a P2P queue's, say), and
/// "access checked and mapping recorded" must be one step against every disabler.
struct Mapping {
  int local_device = -1;
  std::size_t count = 0;  // map_peer_memory calls not yet ended by unmap_peer_memory
  std::size_t bytes = 0;  // the largest range mapped (for error messages)
  std::weak_ptr<detail::DeviceBackend> backend;  // of the devices the ids named then
};
// The backend is part of the key (its serial: a later backend may take a destroyed one's address):
// after configure_host_backend() an id and an address can name another configuration's device and
// memory, and a mapping of the new one must not replace (and so drop the count of) a live mapping
// of the old one at the same address.
struct MappingKey {
  const PeerMemory* owner;
  const void* pointer;
  int remote_device;
  std::uint64_t backend;
  auto operator<=>(const MappingKey&) const = default;
};
struct MappingTable {
  std::mutex mutex;
  std::map<MappingKey, Mapping> entries;
};
MappingTable& mapping_table() {
  static auto* table = new MappingTable;  // never destroyed: PeerMemory objects of static storage use it at exit
  return *table;
}

}  // namespace

PeerMemory::PeerMemory(PeerMemoryOptions options) : options_(options) {
  if (options_.staging_chunk_bytes == 0)
    throw Error(errc::invalid_argument, "PeerMemory::PeerMemory", no_device,
                "PeerMemoryOptions::staging_chunk_bytes must be > 0");
}

PeerMemory::~PeerMemory() {
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);
  std::erase_if(table.entries, [this](const auto& entry) { return entry.first.owner == this; });
}

bool PeerMemory::can_access_peer(int src, int dst) const {
  constexpr const char* call = "PeerMemory::can_access_peer";
  const auto s = Registry::instance().resolve(src, call);
  const auto d = Registry::instance().resolve(dst, call);
  if (src == dst || s.backend != d.backend) return false;
  return s.backend->link(s.ordinal, d.ordinal).peer_access_supported;
}

void PeerMemory::enable_peer_access(int src, int dst) {
  constexpr const char* call = "PeerMemory::enable_peer_access";
  const auto p = resolve_pair(src, dst, call);
  if (src == dst)
    throw Error(errc::invalid_argument, call, src,
                "source and destination are the same device; a device always accesses its own memory");
  p.src.backend->enable_peer_access(p.src.ordinal, p.dst.ordinal, src, dst);
}

void PeerMemory::disable_peer_access(int src, int dst) {
  constexpr const char* call = "PeerMemory::disable_peer_access";
  const auto p = resolve_pair(src, dst, call);
  if (src == dst)
    throw Error(errc::invalid_argument, call, src, "source and destination are the same device");
  // Mappings of dst's memory for src block it; the error lists the first few.
  constexpr std::size_t listed_max = 3;
  struct Listed {
    const void* pointer;
    std::size_t bytes;
    std::size_t count;
    bool ours;
  };
  std::vector<Listed> listed;
  std::size_t live = 0;
  // Held until access is off: a map_peer_memory of another thread (of any PeerMemory), which
  // checks access under the same lock, then either comes first (and refuses this call) or sees
  // access disabled.
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);
  for (const auto& [key, value] : table.entries) {
    if (key.remote_device != src || value.local_device != dst || value.backend.lock() != p.src.backend) continue;
    live += value.count;
    if (listed.size() < listed_max) listed.push_back({key.pointer, value.bytes, value.count, key.owner == this});
  }
  if (live != 0) {
    std::string list;
    std::size_t shown = 0;
    for (const auto& m : listed) {
      list += (list.empty() ? "" : ", ") + hex(m.pointer) + " (" + std::to_string(m.bytes) + " bytes";
      if (m.count > 1) list += ", mapped " + std::to_string(m.count) + " times";
      if (!m.ours) list += ", by another PeerMemory (a P2PMessageQueue's, for one)";
      // A hint only: an address freed and allocated again looks allocated.
      if (p.src.backend->owner_of(m.pointer) != p.dst.ordinal) list += ", no longer allocated";
      list += ')';
      shown += m.count;
    }
    if (shown < live) list += " and " + std::to_string(live - shown) + " more";
    throw Error(errc::invalid_state, call, src,
                "peer access from device " + std::to_string(src) + " to device " + std::to_string(dst) +
                    " is still used by " + std::to_string(live) + " live mapping" + (live == 1 ? "" : "s") +
                    " of device " + std::to_string(dst) + "'s memory: " + list +
                    (live == 1 ? "; end it with unmap_peer_memory(" + hex(listed[0].pointer)
                               : std::string("; end each with unmap_peer_memory(pointer")) +
                    ", " + std::to_string(src) + ")" +
                    (std::any_of(listed.begin(), listed.end(), [](const Listed& m) { return !m.ours; })
                         ? " on the PeerMemory that made it, or destroy the P2PMessageQueue that owns it,"
                         : "") +
                    " first (a mapping stays live until then, also after its memory is freed)");
  }
  p.src.backend->disable_peer_access(p.src.ordinal, p.dst.ordinal, src, dst);
}

bool PeerMemory::peer_access_enabled(int src, int dst) const {
  const auto p = resolve_pair(src, dst, "PeerMemory::peer_access_enabled");
  return src != dst && p.src.backend->peer_access_enabled(p.src.ordinal, p.dst.ordinal);
}

CopyResult PeerMemory::copy_async_checked(void* dst, int dst_device, const void* src,
                                          int src_device, std::size_t bytes, Stream& stream,
                                          const char* call, StreamOrigin origin) {
  if (!stream.backend()) throw Error(errc::invalid_state, call, no_device, "the stream was moved from");
  const auto p = resolve_pair(src_device, dst_device, call);
  if (stream.backend() != p.src.backend) {
    // The internal stream of a synchronous copy was made for the devices the id named a moment
    // before: only a configure_host_backend() running at the same time replaces them.
    if (origin == StreamOrigin::internal)
      throw Error(errc::invalid_state, call, src_device,
                  "configure_host_backend() replaced the host configuration during this call; "
                  "nothing was copied");
    throw Error(errc::invalid_argument, call, stream.device(),
                "the stream belongs to another backend or an older host configuration");
  }
  if (stream.device() != src_device && stream.device() != dst_device)
    throw Error(errc::invalid_argument, call, stream.device(),
                "the stream is on device " + std::to_string(stream.device()) +
                    " but the copy is between devices " + std::to_string(src_device) + " and " +
                    std::to_string(dst_device) + "; use a stream of one of them");
  auto& backend = *p.src.backend;
  check_range(p.dst, dst, bytes, call, "destination");
  check_range(p.src, src, bytes, call, "source");

  if (src_device == dst_device) {
    if (overlaps(dst, src, bytes))
      throw Error(errc::overlapping_ranges, call, src_device,
                  "source " + hex(src) + " and destination " + hex(dst) + " ranges of " +
                      std::to_string(bytes) + " bytes overlap on one device");
    if (bytes != 0) backend.copy_async(stream.impl(), dst, src, bytes);
    return CopyResult{CopyPath::same_device, bytes, bytes != 0 ? 1u : 0u};
  }
  if (path_for(p) == CopyPath::direct_peer) {
    if (bytes != 0) backend.copy_peer_async(stream.impl(), dst, p.dst.ordinal, src, p.src.ordinal, bytes);
    return CopyResult{CopyPath::direct_peer, bytes, bytes != 0 ? 1u : 0u};
  }
  return staging(src_device, dst_device, call)->enqueue(stream, dst, src, bytes);
}

CopyResult PeerMemory::copy_peer(void* dst, int dst_device, const void* src, int src_device,
                                 std::size_t bytes) {
  constexpr const char* call = "PeerMemory::copy_peer";
  const auto stream = internal_stream(Registry::instance().resolve(src_device, call).id);
  const auto result =
      copy_async_checked(dst, dst_device, src, src_device, bytes, *stream, call, StreamOrigin::internal);
  stream->synchronize();
  return result;
}

CopyResult PeerMemory::copy_peer_async(void* dst, int dst_device, const void* src, int src_device,
                                       std::size_t bytes, Stream& stream) {
  return copy_async_checked(dst, dst_device, src, src_device, bytes, stream,
                            "PeerMemory::copy_peer_async");
}

CopyResult PeerMemory::copy_peer_async(void* dst, int dst_device, const void* src, int src_device,
                                       std::size_t bytes, Stream& stream, Event& completion) {
  constexpr const char* call = "PeerMemory::copy_peer_async";
  // Checked before the copy is enqueued: an event that cannot be recorded must not leave a copy
  // behind that nothing marks.
  if (!completion.backend())
    throw Error(errc::invalid_state, call, no_device, "the completion event was moved from");
  if (stream.backend() && completion.backend() != stream.backend())
    throw Error(errc::invalid_argument, call, completion.device(),
                "the completion event of device " + std::to_string(completion.device()) +
                    " and the stream belong to different backends or host configurations");
  if (stream.backend() && completion.device() != stream.device())
    throw Error(errc::invalid_argument, call, completion.device(),
                "the completion event is on device " + std::to_string(completion.device()) +
                    " but the stream on device " + std::to_string(stream.device()) +
                    "; it is recorded on the stream, so it must belong to the stream's device");
  const auto result = copy_async_checked(dst, dst_device, src, src_device, bytes, stream, call);
  completion.record(stream);
  return result;
}

namespace {
// A buffer that owns nothing is refused even for 0 bytes: a copy between devices names both (its
// result says the path between them), where an upload of 0 bytes needs nothing of the buffer.
void check_buffer_range(const char* call, const char* what, const DeviceBuffer& b,
                        std::size_t offset, std::size_t bytes) {
  if (b.device() < 0)
    throw Error(errc::invalid_state, call, no_device,
                std::string("the ") + what + " buffer owns no memory (default-constructed or moved from)");
  if (offset > b.size() || bytes > b.size() - offset)
    throw Error(errc::out_of_range, call, b.device(),
                std::string(what) + " range [" + std::to_string(offset) + ", " + std::to_string(offset) +
                    " + " + std::to_string(bytes) + ") exceeds the buffer of " +
                    std::to_string(b.size()) + " bytes");
}
}  // namespace

CopyResult PeerMemory::copy_peer(DeviceBuffer& dst, std::size_t dst_offset, const DeviceBuffer& src,
                                 std::size_t src_offset, std::size_t bytes) {
  constexpr const char* call = "PeerMemory::copy_peer";
  check_buffer_range(call, "destination", dst, dst_offset, bytes);
  check_buffer_range(call, "source", src, src_offset, bytes);
  if (bytes == 0 && (!dst.data() || !src.data()))  // empty buffers: nothing to copy or check
    return CopyResult{path_for(resolve_pair(src.device(), dst.device(), call)), 0, 0};
  const auto stream = internal_stream(Registry::instance().resolve(src.device(), call).id);
  const auto result = copy_async_checked(dst.bytes() + dst_offset, dst.device(),
                                         src.bytes() + src_offset, src.device(), bytes, *stream, call,
                                         StreamOrigin::internal);
  stream->synchronize();
  return result;
}

CopyResult PeerMemory::copy_peer_async(DeviceBuffer& dst, std::size_t dst_offset,
                                       const DeviceBuffer& src, std::size_t src_offset,
                                       std::size_t bytes, Stream& stream) {
  constexpr const char* call = "PeerMemory::copy_peer_async";
  check_buffer_range(call, "destination", dst, dst_offset, bytes);
  check_buffer_range(call, "source", src, src_offset, bytes);
  if (bytes == 0 && (!dst.data() || !src.data()))
    return CopyResult{path_for(resolve_pair(src.device(), dst.device(), call)), 0, 0};
  return copy_async_checked(dst.bytes() + dst_offset, dst.device(), src.bytes() + src_offset,
                            src.device(), bytes, stream, call);
}

std::shared_ptr<detail::StagingPipeline> PeerMemory::staging(int src, int dst, const char* call) {
  const auto backend = Registry::instance().resolve(src, call).backend;
  std::lock_guard lock(mutex_);
  auto& slot = staging_[{src, dst}];
  if (!slot || slot->backend() != backend) {
    try {
      slot = std::make_shared<detail::StagingPipeline>(src, dst, options_.staging_chunk_bytes);
    } catch (const Error& e) {  // named by the user's call, not by the buffer it allocates
      throw Error(e.code(), call, e.device(), "setting up the host staging buffers and streams (" + e.call() + "): " + e.detail());
    }
  }
  return slot;
}

std::shared_ptr<Stream> PeerMemory::internal_stream(int device) {
  const auto backend = Registry::instance().resolve(device, "PeerMemory").backend;
  std::lock_guard lock(mutex_);
  auto& slot = internal_streams_[device];
  if (!slot || slot->backend() != backend) slot = std::make_shared<Stream>(device);
  return slot;
}

void* PeerMemory::map_peer_memory(void* local, int local_device, int remote_device, std::size_t bytes) {
  constexpr const char* call = "PeerMemory::map_peer_memory";
  const auto p = resolve_pair(local_device, remote_device, call);
  if (local_device == remote_device)
    throw Error(errc::invalid_argument, call, local_device,
                "local and remote device are the same; the memory is accessible without a mapping");
  if (bytes == 0) throw Error(errc::invalid_argument, call, local_device, "cannot map 0 bytes");
  check_range(p.src, local, bytes, call, "local memory");
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);  // access checked and mapping recorded as one step (disable_peer_access)
  if (!p.src.backend->peer_access_enabled(p.dst.ordinal, p.src.ordinal)) {
    const bool supported = p.src.backend->link(p.dst.ordinal, p.src.ordinal).peer_access_supported;
    throw Error(supported ? errc::invalid_state : errc::peer_access_unsupported, call, remote_device,
                "peer access from device " + std::to_string(remote_device) + " to device " +
                    std::to_string(local_device) +
                    (supported ? " is not enabled; call enable_peer_access(" + std::to_string(remote_device) +
                                     ", " + std::to_string(local_device) + ") first"
                               : " is not supported by the topology; memory cannot be mapped, copy it instead"));
  }
  auto& entry = table.entries[MappingKey{this, local, remote_device, p.src.backend->serial()}];
  if (entry.count == 0) entry = Mapping{local_device, 0, 0, p.src.backend};
  ++entry.count;
  entry.bytes = std::max(entry.bytes, bytes);
  return local;  // unified addressing: the peer uses the same address
}

void PeerMemory::unmap_peer_memory(void* mapped, int remote_device) {
  constexpr const char* call = "PeerMemory::unmap_peer_memory";
  // The devices the id names now, if it names one: an old mapping stays unmappable after a
  // configuration with fewer devices.
  std::optional<std::uint64_t> current;
  std::optional<Error> unknown_id;
  try {
    current = Registry::instance().resolve(remote_device, call).backend->serial();
  } catch (const Error& e) {
    if (e.code() != errc::invalid_device) throw;
    unknown_id = e;
  }
  if (!mapped) throw Error(errc::invalid_argument, call, remote_device, "mapped pointer is null");
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);
  // The mapping of the devices the id names now, else one made under an earlier host configuration.
  auto it = current ? table.entries.find(MappingKey{this, mapped, remote_device, *current}) : table.entries.end();
  if (it == table.entries.end()) {
    it = std::find_if(table.entries.begin(), table.entries.end(), [&](const auto& entry) {
      return entry.first.owner == this && entry.first.pointer == mapped && entry.first.remote_device == remote_device;
    });
  }
  if (it == table.entries.end() && unknown_id) throw *unknown_id;
  if (it == table.entries.end())
    throw Error(errc::invalid_state, call, remote_device,
                hex(mapped) + " is not mapped for device " + std::to_string(remote_device) +
                    " (already unmapped, or never mapped by this PeerMemory)");
  if (--it->second.count == 0) table.entries.erase(it);
}

std::size_t PeerMemory::live_mappings() const {
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);
  std::size_t n = 0;
  for (const auto& [key, value] : table.entries) {
    if (key.owner == this) n += value.count;
  }
  return n;
}

}  // namespace ringkernel
