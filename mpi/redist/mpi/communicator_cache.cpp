#include "redist/mpi/communicator_cache.hpp"

#include <algorithm>

#include "redist/mpi/mpi_check.hpp"

namespace redist::mpi {

int CommunicatorAttribute::keyval() {
  if (keyval_ == MPI_KEYVAL_INVALID) {
    int at_finalize = MPI_KEYVAL_INVALID;
    check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_finalize, &at_finalize, this), "MPI_Comm_create_keyval");
    check_mpi(MPI_Comm_set_attr(MPI_COMM_SELF, at_finalize, nullptr), "MPI_Comm_set_attr");
    check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_delete, &keyval_, this), "MPI_Comm_create_keyval");
  }
  return keyval_;
}

void* CommunicatorAttribute::find(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(comm, keyval(), &value, &found), "MPI_Comm_get_attr");
  return found != 0 ? value : nullptr;
}

void CommunicatorAttribute::keep(MPI_Comm comm, void* value) {
  kept_.emplace_back(comm, value);
  const int code = MPI_Comm_set_attr(comm, keyval(), value);
  if (code != MPI_SUCCESS) {
    kept_.pop_back();
    destroy_(value);
    check_mpi(code, "MPI_Comm_set_attr");
  }
}

void CommunicatorAttribute::release_all() {
  while (!kept_.empty()) {
    const auto [comm, value] = kept_.back();
    MPI_Comm_delete_attr(comm, keyval_);  // on_delete forgets and destroys it
    if (!kept_.empty() && kept_.back().second == value) {  // the attribute was gone: destroy it here
      kept_.pop_back();
      destroy_(value);
    }
  }
}

int CommunicatorAttribute::on_delete(MPI_Comm, int, void* value, void* self) {
  auto& attribute = *static_cast<CommunicatorAttribute*>(self);
  std::erase_if(attribute.kept_, [value](const auto& kept) { return kept.second == value; });
  attribute.destroy_(value);
  return MPI_SUCCESS;
}

int CommunicatorAttribute::on_finalize(MPI_Comm, int, void*, void* self) {
  static_cast<CommunicatorAttribute*>(self)->release_all();
  return MPI_SUCCESS;
}

}  // namespace redist::mpi
