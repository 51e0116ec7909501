// MPI matching rules of the simulator's matcher, without SimGrid.
#include <gtest/gtest.h>

#include <cstring>

#include "redist/sim/matcher.hpp"

namespace redist::sim {
namespace {

SendSide send_from(Rank source, Tag tag, Index bytes = 0, Traffic traffic = Traffic::User) {
  return {source, tag, traffic, nullptr, bytes};
}

ReceiveSide receive_from(Rank from, Tag tag, Index capacity = 0, Traffic traffic = Traffic::User) {
  return {from, tag, traffic, nullptr, capacity, std::make_shared<ReceiveStatus>()};
}

TEST(SimMatcher, SendBeforeReceiveIsFoundByTheReceive) {
  Matcher m(2);
  const auto sent = m.post_send(1, send_from(0, 7));
  EXPECT_FALSE(sent.matched);
  const auto received = m.post_receive(1, receive_from(0, 7));
  ASSERT_TRUE(received.matched);
  EXPECT_EQ(received.channel, sent.channel);
  EXPECT_EQ(received.matched->source, 0);
}

TEST(SimMatcher, ReceiveBeforeSendIsFoundByTheSend) {
  Matcher m(2);
  const auto received = m.post_receive(1, receive_from(kAnySource, 7));
  EXPECT_FALSE(received.matched);
  const auto sent = m.post_send(1, send_from(0, 7));
  ASSERT_TRUE(sent.matched);
  EXPECT_EQ(sent.channel, received.channel);
}

TEST(SimMatcher, TagsSourcesAndTrafficKindsMustAgree) {
  Matcher m(3);
  m.post_send(2, send_from(0, 1));
  m.post_send(2, send_from(1, 2));
  m.post_send(2, send_from(0, 2, 0, Traffic::Internal));
  EXPECT_FALSE(m.post_receive(2, receive_from(1, 1)).matched);  // no tag 1 from rank 1
  const auto internal = m.post_receive(2, receive_from(0, 2, 0, Traffic::Internal));
  ASSERT_TRUE(internal.matched);
  EXPECT_EQ(internal.matched->traffic, Traffic::Internal);
  const auto any = m.post_receive(2, receive_from(kAnySource, 2));
  ASSERT_TRUE(any.matched);
  EXPECT_EQ(any.matched->source, 1);
  EXPECT_EQ(m.unexpected_sends(), 1U);  // rank 0's tag 1
  EXPECT_EQ(m.posted_receives(), 1U);   // the unmatched receive from rank 1, tag 1
}

TEST(SimMatcher, OldestMatchFirstSoMessagesDoNotOvertake) {
  Matcher m(2);
  for (Index bytes = 10; bytes < 15; ++bytes) m.post_send(1, send_from(0, 3, bytes));
  for (Index bytes = 10; bytes < 15; ++bytes) {
    const auto r = m.post_receive(1, receive_from(kAnySource, 3));
    ASSERT_TRUE(r.matched);
    EXPECT_EQ(r.matched->bytes, bytes);
  }
}

TEST(SimMatcher, ChannelsAreReusedOnlyAfterRelease) {
  Matcher m(2);
  const Channel a = m.post_send(1, send_from(0, 0)).channel;
  const Channel b = m.post_send(1, send_from(0, 1)).channel;
  EXPECT_NE(a, b);
  m.post_receive(1, receive_from(0, 0));
  m.release(a);
  EXPECT_EQ(m.post_send(1, send_from(0, 2)).channel, a);
}

TEST(SimMatcher, DeliverCopiesBytesAndRefusesOverflow) {
  const char text[] = "payload";
  char buffer[16] = {};
  ReceiveSide receive = receive_from(kAnySource, 0, sizeof buffer);
  receive.data = reinterpret_cast<std::byte*>(buffer);
  SendSide send = send_from(4, 0, sizeof text);
  send.data = reinterpret_cast<const std::byte*>(text);
  deliver(send, receive, 1, /*phantom=*/false);
  EXPECT_STREQ(buffer, text);
  EXPECT_EQ(receive.status->source, 4);
  EXPECT_EQ(receive.status->bytes, static_cast<Index>(sizeof text));
  EXPECT_TRUE(receive.status->error.empty());

  receive.capacity = 3;
  deliver(send, receive, 1, /*phantom=*/false);
  EXPECT_NE(receive.status->error.find("exceeds the receive capacity of 3 bytes on rank 1"), std::string::npos);
}

}  // namespace
}  // namespace redist::sim
