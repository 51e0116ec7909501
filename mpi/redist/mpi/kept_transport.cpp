#include "redist/mpi/kept_transport.hpp"

#include "redist/mpi/communicator_cache.hpp"

namespace redist::mpi {
namespace {

struct KeptTransport {
  std::shared_ptr<MpiTransport> transport;
};

CommunicatorCache<KeptTransport>& kept_transports() {
  static CommunicatorCache<KeptTransport> kept;
  return kept;
}

}  // namespace

const std::shared_ptr<MpiTransport>& kept_transport(MPI_Comm comm) {
  return kept_transports()
      .get(comm, [comm] { return std::make_unique<KeptTransport>(std::make_shared<MpiTransport>(comm)); })
      .transport;
}

void release_kept_transports() { kept_transports().release_all(); }

}  // namespace redist::mpi
