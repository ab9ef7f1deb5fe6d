// Copyright RingKernel authors.
// QueueOptions that no queue accepts are refused at construction with an Error that names the
// option, before anything is allocated: a policy or memory outside its enum (a cast, an
// uninitialised field; neither may be read as another value or reach the storage), and a device
// id that names no device, whatever the memory. The P2P queue's options go through the same check.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "error_capture.h"
#include "messaging_messages.rk.h"
#include "ringkernel/device.h"
#include "ringkernel/p2p_message_queue.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/queue/message_queue.h"

namespace {

using messaging_test::Tagged;
using ringkernel::errc;
using ringkernel::FullPolicy;
using ringkernel::QueueMemory;
using ringkernel::QueueOptions;

using messaging_test::error_of;
using messaging_test::mentions;

int first_host_device() {
  const auto host = ringkernel::devices(ringkernel::Backend::host);
  return host.empty() ? -1 : host.front().id;
}

template <class Queue>
void expect_refused(const QueueOptions& o, errc code, const std::string& text) {
  const ringkernel::Error e = error_of([&] { Queue q(o); });
  EXPECT_EQ(e.code(), code) << e.what();
  EXPECT_TRUE(mentions(e, text)) << e.what();
}

TEST(QueueOptions, APolicyOutsideFullPolicyIsRefusedNotReadAsReject) {
  const auto bad = static_cast<FullPolicy>(9);
  expect_refused<ringkernel::MpmcQueue<Tagged>>({.capacity = 8, .policy = bad}, errc::invalid_argument,
                                                "QueueOptions::policy 9 is no FullPolicy");
  expect_refused<ringkernel::SpscQueue<Tagged>>({.capacity = 8, .policy = bad}, errc::invalid_argument,
                                                "QueueOptions::policy 9 is no FullPolicy");
}

TEST(QueueOptions, AMemoryOutsideQueueMemoryIsRefusedBeforeAnythingIsAllocated) {
  const auto bad = static_cast<QueueMemory>(9);
  const int dev = first_host_device();
  ASSERT_GE(dev, 0) << "needs a host-backend device (RINGKERNEL_HOST_DEVICES)";
  for (const int device : {dev, -1}) {  // with a device it reached the storage with no memory at all
    SCOPED_TRACE("device " + std::to_string(device));
    expect_refused<ringkernel::MpmcQueue<Tagged>>({.capacity = 8, .memory = bad, .device = device},
                                                  errc::invalid_argument, "QueueOptions::memory 9 is no QueueMemory");
    expect_refused<ringkernel::SpscQueue<Tagged>>({.capacity = 8, .memory = bad, .device = device},
                                                  errc::invalid_argument, "QueueOptions::memory 9 is no QueueMemory");
  }
}

TEST(QueueOptions, ADeviceIdThatNamesNoDeviceIsRefusedByTheQueueWhateverTheMemory) {
  for (const QueueMemory memory : {QueueMemory::host, QueueMemory::pinned, QueueMemory::device}) {
    SCOPED_TRACE(ringkernel::to_string(memory));
    const QueueOptions o{.capacity = 8, .memory = memory, .device = 99};
    for (const bool spsc : {false, true}) {
      const ringkernel::Error e = error_of([&] {
        if (spsc) {
          ringkernel::SpscQueue<Tagged> q(o);
        } else {
          ringkernel::MpmcQueue<Tagged> q(o);
        }
      });
      EXPECT_EQ(e.code(), errc::invalid_device) << e.what();
      EXPECT_EQ(e.device(), 99) << e.what();
      // The queue's own check, the same for both ring types (not an internal allocation's message).
      EXPECT_TRUE(mentions(e, "BasicMessageQueue")) << e.what();
      EXPECT_TRUE(mentions(e, "QueueOptions::device")) << e.what();
    }
  }
}

// -1 is "no device" (host memory; a side on the ring's own device); every other negative id names
// none and is refused, for the ring's device and for each side's.
TEST(QueueOptions, ANegativeDeviceIdOtherThanMinusOneIsRefused) {
  struct Case {
    QueueOptions options;
    const char* field;
  };
  const Case cases[] = {
      {QueueOptions{.capacity = 8, .device = -5}, "QueueOptions::device = -5"},
      {QueueOptions{.capacity = 8, .memory = QueueMemory::pinned, .device = -2}, "QueueOptions::device = -2"},
      {QueueOptions{.capacity = 8, .producer_device = -9}, "QueueOptions::producer_device = -9"},
      {QueueOptions{.capacity = 8, .consumer_device = -3}, "QueueOptions::consumer_device = -3"},
  };
  for (const Case& c : cases) {
    const ringkernel::Error e = error_of([&] { ringkernel::MpmcQueue<Tagged> q(c.options); });
    EXPECT_EQ(e.code(), errc::invalid_device) << e.what();
    EXPECT_TRUE(mentions(e, c.field)) << e.what();
    EXPECT_TRUE(mentions(e, "names no device")) << e.what();
  }
  ringkernel::MpmcQueue<Tagged> host_memory(QueueOptions{.capacity = 8, .device = -1});  // still fine
  EXPECT_EQ(host_memory.capacity(), 8u);
}

TEST(QueueOptions, AP2PQueueRefusesAPolicyOutsideFullPolicy) {
  const auto host = ringkernel::devices(ringkernel::Backend::host);
  ASSERT_GE(host.size(), 2u) << "needs two host-backend devices (RINGKERNEL_HOST_DEVICES=2)";
  ringkernel::PeerMemory peers;
  const ringkernel::Error e = error_of([&] {
    ringkernel::P2PMessageQueue<Tagged> q(peers, host[0].id, host[1].id,
                                          ringkernel::P2PQueueOptions{.capacity = 8, .policy = static_cast<FullPolicy>(9)});
  });
  EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  EXPECT_TRUE(mentions(e, "P2PQueueOptions: QueueOptions::policy 9 is no FullPolicy")) << e.what();
}

// The name of every P2PTransferMode and QueueUsers (as the error messages spell them), and
// "invalid" for a value past them.
TEST(QueueOptions, EveryTransferModeAndQueueUsersHasItsName) {
  using ringkernel::P2PTransferMode;
  using ringkernel::QueueUsers;
  const std::pair<P2PTransferMode, const char*> modes[] = {{P2PTransferMode::direct_p2p, "direct_p2p"},
                                                           {P2PTransferMode::host_staged, "host_staged"},
                                                           {P2PTransferMode::adaptive, "adaptive"},
                                                           {static_cast<P2PTransferMode>(3), "invalid"},
                                                           {static_cast<P2PTransferMode>(255), "invalid"}};
  for (const auto& [mode, name] : modes) EXPECT_STREQ(ringkernel::to_string(mode), name) << static_cast<int>(mode);
  const std::pair<QueueUsers, const char*> users[] = {{QueueUsers::host, "host"},
                                                      {QueueUsers::kernels, "kernels"},
                                                      {QueueUsers::host_and_kernels, "host_and_kernels"},
                                                      {static_cast<QueueUsers>(0), "invalid"},
                                                      {static_cast<QueueUsers>(200), "invalid"}};
  for (const auto& [user, name] : users) EXPECT_STREQ(ringkernel::to_string(user), name) << static_cast<int>(user);
}

}  // namespace
