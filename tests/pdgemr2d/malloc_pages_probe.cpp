// malloc_pages_probe SEND RECEIVE: makes pdgemr2d's allocations of one call (its parameters, the send
// and receive buffers of SEND and RECEIVE bytes, 0 for none, its interval lists and its caterpillar's
// slots), writes both buffers and frees everything in pdgemr2d's order, three times in a fresh
// process. Prints, for the third call, how many bytes of each buffer lay on pages the process did not
// hold when the call took them (mincore): the pages that call touched for the first time.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

namespace {

long long absent_bytes(const char* buffer, long long bytes) {
  if (buffer == nullptr || bytes == 0) return 0;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(buffer), end = begin + static_cast<std::uintptr_t>(bytes);
  const std::uintptr_t first = begin / page * page;
  std::vector<unsigned char> resident((end - first + page - 1) / page);
  if (mincore(reinterpret_cast<void*>(first), end - first, resident.data()) != 0) std::exit(3);
  long long absent = 0;
  for (std::size_t k = 0; k < resident.size(); ++k) {
    if (resident[k] & 1) continue;
    const std::uintptr_t from = std::max(begin, first + k * page), to = std::min(end, first + (k + 1) * page);
    absent += static_cast<long long>(to - from);
  }
  return absent;
}

// Writes a byte of every 64 (every page, and every cache line), where the compiler cannot drop the
// stores as dead before free().
void write_all(char* buffer, long long bytes, int value) {
  volatile char* written = buffer;
  for (long long k = 0; k < bytes; k += 64) written[k] = static_cast<char>(value);
  written[bytes - 1] = static_cast<char>(value);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const long long send = std::atoll(argv[1]), receive = std::atoll(argv[2]);
  long long absent_send = 0, absent_receive = 0;
  for (int call = 0; call < 3; ++call) {
    void* parameters = std::malloc(3 * (2 * 4 + 20) * 8);
    char* send_buffer = send > 0 ? static_cast<char*>(std::malloc(static_cast<std::size_t>(send))) : nullptr;
    char* receive_buffer = receive > 0 ? static_cast<char*>(std::malloc(static_cast<std::size_t>(receive))) : nullptr;
    void* columns = std::malloc(4096);
    void* rows = std::malloc(4096);
    void* slots = std::malloc(64);
    absent_send = absent_bytes(send_buffer, send);
    absent_receive = absent_bytes(receive_buffer, receive);
    if (send_buffer) write_all(send_buffer, send, call + 1);
    if (receive_buffer) write_all(receive_buffer, receive, call + 1);
    std::free(slots);
    std::free(receive_buffer);
    std::free(send_buffer);
    std::free(rows);
    std::free(columns);
    std::free(parameters);
  }
  std::printf("%lld %lld\n", absent_send, absent_receive);
  return 0;
}
