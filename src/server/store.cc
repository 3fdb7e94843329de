#include "store.h"

#include "pg_store.h"
#include "sqlite_store.h"

namespace carc::server {

bool is_postgres_uri(const std::string& where) {
  return where.rfind("postgresql://", 0) == 0 || where.rfind("postgres://", 0) == 0;
}

std::string store_display_name(const std::string& where) {
  if (!is_postgres_uri(where)) return where;
  const size_t start = where.find("://") + 3;
  const size_t at = where.find('@', start);
  const size_t slash = where.find('/', start);
  if (at == std::string::npos || (slash != std::string::npos && slash < at)) return where;
  const size_t colon = where.find(':', start);
  if (colon == std::string::npos || colon > at) return where;
  return where.substr(0, colon + 1) + "***" + where.substr(at);
}

std::unique_ptr<Store> make_store(const std::string& where) {
  if (is_postgres_uri(where)) return std::make_unique<PgStore>();
  return std::make_unique<SqliteStore>();
}

}  // namespace carc::server
