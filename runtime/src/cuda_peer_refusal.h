// Copyright RingKernel authors.
// What the CUDA backend's enable_peer_access says when a pair has no peer access: why, from what
// enumeration found. Pure (strings only): tests/runtime/cuda_peer_refusal_test.cpp checks it
// without a GPU.
#pragma once

#include <string>

namespace ringkernel::detail {

/// Why device `a_id` (PCI bus id `pci_a`) has no peer access to device `b_id`: `failed`, the peer
/// query that failed for the pair when the devices were enumerated ("<call> returned <error>", the
/// backend note's words), or, where that is empty, cudaDeviceCanAccessPeer's answer.
inline std::string cuda_peer_refusal(const std::string& failed, int a_id, int b_id, const std::string& pci_a,
                                     const std::string& pci_b) {
  const std::string a = std::to_string(a_id), b = std::to_string(b_id);
  const std::string staged = "; copies between them are host-staged";
  if (!failed.empty())
    return "the peer query from device " + a + " to device " + b + " failed when the devices were enumerated (" +
           failed + "), so the pair is taken for one without peer access" + staged;
  return "cudaDeviceCanAccessPeer reports that device " + a + " cannot access device " + b + " (no P2P path between " +
         pci_a + " and " + pci_b + ")" + staged;
}

}  // namespace ringkernel::detail
