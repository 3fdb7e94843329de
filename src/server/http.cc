// The HTTP transport on Boost.Beast (see http.h and docs/server.md, "Transport").
//
// Threads: `io_threads` run every socket (accept, reads, writes, timers), each connection on
// its own strand; `handler_threads` run the handler (routes.cc: SQLite, JSON), so a slow
// write to the database never holds up a socket. A connection is one object:
//   accept -> [limits: connections in total / per address, else 503]
//   -> read the header (header timeout; size, field count, URL length, else 431/414/400)
//   -> read the body (body timeout; size, also chunked, else 413 and close)
//   -> handler thread -> write the response (write timeout) -> keep-alive: wait for the next
//      request (idle timeout)
// An event stream (Response::stream) subscribes to its game and then only writes: each new
// state is one chunk; a client slower than the game gets the latest state only (states are
// whole views, so nothing is lost by skipping one).
#include "http.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include "guard.h"
#include "url.h"

namespace carc::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;

namespace {

using Parser = bhttp::request_parser<bhttp::string_body>;

std::string reason(int status) {
  const auto r = bhttp::obsolete_reason(bhttp::status(unsigned(status)));
  return std::string(r.data(), r.size());
}

// The bytes of a response with a body (not an event stream).
std::string serialize(const Response& r, bool keep_alive, bool head) {
  std::string out;
  out.reserve(r.body.size() + 256);
  out += "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) + "\r\n";
  out += "Content-Type: " + r.content_type + "\r\n";
  for (const auto& [k, v] : r.headers) out += k + ": " + v + "\r\n";
  for (const auto& [k, v] : security_headers()) out += k + ": " + v + "\r\n";
  out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
  out += keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
  if (!head) out += r.body;
  return out;
}

// The head of an event stream; `keep_alive` only matters for a HEAD request (which gets this
// head and no stream: a stream itself ends the connection when it ends).
std::string stream_head(const Response& r, bool keep_alive = true) {
  std::string out = "HTTP/1.1 200 OK\r\nContent-Type: " + r.content_type + "\r\n";
  for (const auto& [k, v] : r.headers) out += k + ": " + v + "\r\n";
  for (const auto& [k, v] : security_headers()) out += k + ": " + v + "\r\n";
  out += keep_alive ? "Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n"
                    : "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
  return out;
}

std::string hex(size_t n) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%zx\r\n", n);
  return buf;
}

// The answer to a request the parser refused. `line_complete`: the request line has ended
// (a header too large is then 431, else the URL is too long: 414).
Response parse_refusal(const beast::error_code& ec, bool line_complete, const HttpOptions& o) {
  if (ec == bhttp::error::body_limit)
    return error_response(413, "the request body is larger than " + std::to_string(o.max_body) + " bytes");
  if (ec == bhttp::error::header_limit)
    return line_complete ? error_response(431, "the request headers are larger than " + std::to_string(o.max_header_bytes) + " bytes")
                         : error_response(414, "the URL is longer than " + std::to_string(o.max_url_bytes) + " bytes");
  return error_response(400, "malformed HTTP request: " + ec.message());
}

// Whether the request line is within bounds (it ends, and before max_url_bytes): a header
// too large is then 431, else the URL is too long (414).
bool line_complete(std::string_view data, const HttpOptions& o) {
  const size_t eol = data.find('\n');
  return eol != std::string_view::npos && eol <= o.max_url_bytes;
}

// Checks once the header is in: the URL's length, the number of header fields, and how the
// body is framed. Transfer-Encoding must be exactly "chunked" (one field, any case, spaces
// around it allowed), and never together with Content-Length: anything else would be read
// differently by a proxy in front (request smuggling), so RFC 9112 says 400 and close. (The
// caller closes the connection after every refusal from here.)
std::optional<Response> check_header(const Parser& p, const HttpOptions& o) {
  const auto& m = p.get();
  if (m.target().size() > o.max_url_bytes)
    return error_response(414, "the URL is longer than " + std::to_string(o.max_url_bytes) + " bytes");
  size_t n = 0, te = 0, cl = 0;
  std::string_view te_value;
  for (auto it = m.begin(); it != m.end(); ++it) {
    ++n;
    if (it->name() == bhttp::field::transfer_encoding) {
      ++te;
      te_value = std::string_view(it->value().data(), it->value().size());
    } else if (it->name() == bhttp::field::content_length) {
      ++cl;
    }
  }
  if (n > o.max_header_count)
    return error_response(431, "more than " + std::to_string(o.max_header_count) + " header fields");
  if (te > 0) {
    while (!te_value.empty() && (te_value.front() == ' ' || te_value.front() == '\t')) te_value.remove_prefix(1);
    while (!te_value.empty() && (te_value.back() == ' ' || te_value.back() == '\t')) te_value.remove_suffix(1);
    if (te > 1 || !beast::iequals(beast::string_view(te_value.data(), te_value.size()), "chunked"))
      return error_response(400, "unsupported Transfer-Encoding: only 'chunked' is accepted");
    if (cl > 0) return error_response(400, "a request may not have both Transfer-Encoding and Content-Length");
  }
  return std::nullopt;
}

// The neutral request of a parsed message, or the 400 of a bad target.
std::optional<Response> to_request(const Parser& p, Request& req) {
  const auto& m = p.get();
  const auto method = m.method_string();
  req.method.assign(method.data(), method.size());
  const auto target = m.target();
  if (auto err = parse_target(std::string_view(target.data(), target.size()), req); !err.empty())
    return error_response(400, err);
  for (const auto& f : m) {
    const auto n = f.name_string();
    const auto v = f.value();
    req.headers.emplace_back(std::string(n.data(), n.size()), std::string(v.data(), v.size()));
  }
  req.body = m.body();
  return std::nullopt;
}

Response call(const Handler& handler, const Request& req) {
  try {
    return handler(req);
  } catch (const std::exception& e) {
    return error_response(500, std::string("internal error: ") + e.what());
  } catch (...) {
    return error_response(500, "internal error");
  }
}

bool client_gone(const beast::error_code& ec) {
  return ec == bhttp::error::end_of_stream || ec == net::error::eof || ec == beast::error::timeout ||
         ec == net::error::operation_aborted || ec == net::error::connection_reset || ec == net::error::broken_pipe ||
         ec == net::error::bad_descriptor || ec == net::error::not_connected;
}

const StreamMessage& keep_alive_message() {
  static const StreamMessage m = std::make_shared<const std::string>(": keep-alive\n\n");
  return m;
}

}  // namespace

class Conn;

struct HttpServer::Impl {
  HttpOptions opts;
  Handler handler;

  // Declared before the io_context: connections it destroys still update these.
  mutable std::mutex m;
  std::unordered_map<std::string, int> per_address;
  std::unordered_map<Conn*, std::weak_ptr<Conn>> live;
  std::atomic<int> connections{0};
  std::atomic<int> streams{0};
  std::atomic<bool> stopped{false};
  // Event-stream messages handed over by the games' threads, passed on to the streams by an
  // I/O thread: one wake-up of an I/O thread per change of a game, not one per stream.
  std::mutex fan_m;
  std::vector<std::pair<std::weak_ptr<Conn>, StreamMessage>> fan_pending;
  bool fan_scheduled = false;

  net::io_context ioc;
  tcp::acceptor acceptor{ioc};
  net::steady_timer accept_retry{ioc};
  net::steady_timer ticker{ioc};
  std::optional<net::thread_pool> handlers;
  std::vector<std::thread> threads;
  int bound_port = 0;

  Impl(HttpOptions o, Handler h) : opts(std::move(o)), handler(std::move(h)), ioc(std::max(1, opts.io_threads)) {}

  void accept();
  void fan_out(const std::weak_ptr<Conn>& c, const StreamMessage& msg);
  void on_accept(tcp::socket socket);
  void reject(tcp::socket socket, const std::string& why);
  void tick();
  void release(Conn* c, const std::string& addr, bool stream) {
    std::lock_guard lk(m);
    live.erase(c);
    if (auto it = per_address.find(addr); it != per_address.end() && --it->second <= 0) per_address.erase(it);
    --connections;
    if (stream) --streams;
  }
};

// One connection (see the top of the file).
class Conn : public std::enable_shared_from_this<Conn> {
 public:
  Conn(tcp::socket s, HttpServer::Impl& srv, std::string addr)
      : stream_(std::move(s)), exec_(stream_.get_executor()), srv_(srv), o_(srv.opts), addr_(std::move(addr)),
        buffer_(srv.opts.max_header_bytes + 8192) {}
  ~Conn() {
    if (unsubscribe_) unsubscribe_();  // destroyed without close() (the server stopped): leave the game
    srv_.release(this, addr_, stream_counted_);
  }

  void start() { read_header(); }

  // On the strand: closes the socket; every pending operation ends.
  void close() {
    if (closed_) return;
    closed_ = true;
    if (unsubscribe_) {
      auto f = std::move(unsubscribe_);
      unsubscribe_ = nullptr;
      f();
    }
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

  // On the strand: one event for the stream (the latest wins while a write is pending).
  void push(const StreamMessage& msg) {
    if (closed_ || !streaming_) return;
    if (writing_) {
      if (msg == keep_alive_message() && pending_) return;
      pending_ = msg;
      return;
    }
    write_chunk(msg);
  }

  bool streaming() const { return streaming_; }
  const net::any_io_executor& executor() const { return exec_; }

 private:
  // Between requests of a kept-alive connection: wait (idle timeout) for the first byte.
  void wait_request() {
    if (buffer_.size() > 0) return read_header();
    stream_.expires_after(o_.idle_timeout);
    stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](beast::error_code ec, size_t n) {
      if (ec) return self->close();
      self->buffer_.commit(n);
      self->read_header();
    });
  }

  void read_header() {
    head_ = false;
    parser_.emplace();
    parser_->header_limit(std::uint32_t(std::min<size_t>(o_.max_header_bytes, UINT32_MAX)));
    parser_->body_limit(o_.max_body);
    stream_.expires_after(o_.header_timeout);
    bhttp::async_read_header(stream_, buffer_, *parser_,
                             [self = shared_from_this()](beast::error_code ec, size_t) { self->on_header(ec); });
  }

  void on_header(beast::error_code ec) {
    if (ec) {
      if (client_gone(ec) || ec == bhttp::error::partial_message) return close();
      const auto d = buffer_.data();
      // The parser takes the request line as soon as it is complete: a target means it was.
      const bool line_ok = !parser_->get().target().empty() ||
                           line_complete(std::string_view(static_cast<const char*>(d.data()), d.size()), o_);
      return refuse(parse_refusal(ec, line_ok, o_));
    }
    head_ = parser_->get().method() == bhttp::verb::head;
    if (auto r = check_header(*parser_, o_)) return refuse(*r);
    if (parser_->is_done()) return dispatch();
    const auto& m = parser_->get();
    if (beast::iequals(m[bhttp::field::expect], "100-continue")) {
      auto msg = std::make_shared<const std::string>("HTTP/1.1 100 Continue\r\n\r\n");
      stream_.expires_after(o_.write_timeout);
      net::async_write(stream_, net::buffer(*msg), [self = shared_from_this(), msg](beast::error_code e, size_t) {
        if (e) return self->close();
        self->read_body();
      });
      return;
    }
    read_body();
  }

  void read_body() {
    stream_.expires_after(o_.body_timeout);
    bhttp::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (!ec) return self->dispatch();
      if (ec == bhttp::error::body_limit) return self->refuse(parse_refusal(ec, true, self->o_));
      if (client_gone(ec) || ec == bhttp::error::partial_message) return self->close();
      self->refuse(parse_refusal(ec, true, self->o_));
    });
  }

  // The request is in: run the handler on a handler thread.
  void dispatch() {
    auto req = std::make_shared<Request>();
    req->client = addr_;
    keep_alive_ = parser_->get().keep_alive();
    head_ = parser_->get().method() == bhttp::verb::head;
    if (auto r = to_request(*parser_, *req)) {
      log(*req, r->status);
      return write_response(std::move(*r), false);
    }
    if (auto r = guard_request(*req, o_.allowed_hosts)) {  // Host, Origin, Content-Type (guard.h)
      log(*req, r->status);
      parser_.reset();
      return write_response(std::move(*r), false);
    }
    parser_.reset();
    if (srv_.stopped) return close();
    net::post(*srv_.handlers, [self = shared_from_this(), req] { self->run_handler(*req); });
  }

  // On a handler thread.
  void run_handler(const Request& req) {
    auto res = std::make_shared<Response>(call(srv_.handler, req));
    log(req, res->status);
    if (res->stream && head_) {  // HEAD: the stream's head, no body, no subscription
      auto head = std::make_shared<std::string>(stream_head(*res, keep_alive_ && !srv_.stopped));
      net::post(exec_, [self = shared_from_this(), head] { self->write_head_only(std::move(*head)); });
      return;
    }
    if (res->stream) {
      if (srv_.streams.fetch_add(1) >= o_.max_streams) {
        --srv_.streams;
        *res = error_response(503, "too many open event streams (" + std::to_string(o_.max_streams) +
                                       "): poll GET /api/games/ID instead");
      } else {
        stream_counted_ = true;  // read by the destructor, after the posts below
        net::post(exec_, [self = shared_from_this(), res] { self->start_stream(*res); });
        std::weak_ptr<Conn> weak = weak_from_this();
        HttpServer::Impl* srv = &srv_;
        auto unsubscribe = res->stream->subscribe([weak, srv](const StreamMessage& msg) { srv->fan_out(weak, msg); });
        net::post(exec_, [self = shared_from_this(), unsubscribe] {
          if (self->closed_) {
            if (unsubscribe) unsubscribe();
          } else {
            self->unsubscribe_ = unsubscribe;
          }
        });
        return;
      }
    }
    net::post(exec_, [self = shared_from_this(), res] { self->write_response(std::move(*res), false); });
  }

  void log(const Request& req, int status) const {
    if (o_.log_requests) std::cerr << req.method << " " << req.path << " " << status << "\n";
  }

  // A refusal by the transport: answered, then the connection is closed (whatever else the
  // client sends is not read, beyond a short linger).
  void refuse(Response r) { write_response(std::move(r), true); }

  void write_response(Response r, bool close_after) {
    if (closed_) return;
    const bool keep = keep_alive_ && !close_after && !srv_.stopped;
    out_ = serialize(r, keep, head_);
    stream_.expires_after(o_.write_timeout);
    net::async_write(stream_, net::buffer(out_), [self = shared_from_this(), keep](beast::error_code ec, size_t) {
      self->out_.clear();
      if (ec) return self->close();
      if (!keep) return self->linger();
      self->wait_request();
    });
  }

  // The head of an event stream answering a HEAD request: no body follows.
  void write_head_only(std::string head) {
    if (closed_) return;
    const bool keep = keep_alive_ && !srv_.stopped;
    out_ = std::move(head);
    stream_.expires_after(o_.write_timeout);
    net::async_write(stream_, net::buffer(out_), [self = shared_from_this(), keep](beast::error_code ec, size_t) {
      self->out_.clear();
      if (ec) return self->close();
      if (!keep) return self->linger();
      self->wait_request();
    });
  }

  // Half-close, then read and drop what the client still sends (bounded in bytes and time),
  // so that it sees the answer rather than a reset; then close.
  void linger() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(limits::kLingerTime);
    drain();
  }
  void drain() {
    stream_.async_read_some(net::buffer(scratch_), [self = shared_from_this()](beast::error_code ec, size_t n) {
      self->drained_ += n;
      if (ec || self->drained_ > limits::kLingerBytes) return self->close();
      self->drain();
    });
  }

  // An event stream: the head, then one chunk per message until either side closes.
  void start_stream(const Response& r) {
    if (closed_) return;
    streaming_ = true;
    writing_ = true;
    out_ = stream_head(r);
    stream_.expires_after(o_.write_timeout);
    net::async_write(stream_, net::buffer(out_), [self = shared_from_this()](beast::error_code ec, size_t) {
      self->on_chunk_written(ec);
    });
    watch();
  }

  // A stream's client sends nothing more: a read that ends is the client going away.
  void watch() {
    stream_.socket().async_read_some(net::buffer(scratch_), [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->close();
      self->watch();  // whatever it sends is dropped
    });
  }

  void write_chunk(const StreamMessage& msg) {
    writing_ = true;
    current_ = msg;
    chunk_head_ = hex(msg->size());
    const std::array<net::const_buffer, 3> bufs{net::buffer(chunk_head_), net::buffer(*current_), net::buffer("\r\n", 2)};
    stream_.expires_after(o_.write_timeout);
    net::async_write(stream_, bufs, [self = shared_from_this()](beast::error_code ec, size_t) { self->on_chunk_written(ec); });
  }

  void on_chunk_written(beast::error_code ec) {
    writing_ = false;
    current_.reset();
    out_.clear();
    if (ec || closed_) return close();
    if (pending_) {
      StreamMessage next = std::move(pending_);
      pending_.reset();
      write_chunk(next);
    }
  }

  beast::tcp_stream stream_;
  const net::any_io_executor exec_;
  HttpServer::Impl& srv_;
  const HttpOptions& o_;
  const std::string addr_;
  beast::flat_buffer buffer_;
  std::optional<Parser> parser_;
  std::string out_;
  std::array<char, 4096> scratch_{};
  size_t drained_ = 0;
  bool keep_alive_ = false;
  bool head_ = false;
  bool closed_ = false;
  // event stream
  bool streaming_ = false;
  bool writing_ = false;
  bool stream_counted_ = false;
  StreamMessage current_, pending_;
  std::string chunk_head_;
  std::function<void()> unsubscribe_;
};

void HttpServer::Impl::fan_out(const std::weak_ptr<Conn>& c, const StreamMessage& msg) {
  std::lock_guard lk(fan_m);
  fan_pending.emplace_back(c, msg);
  if (fan_scheduled) return;
  fan_scheduled = true;
  net::post(ioc, [this] {
    std::vector<std::pair<std::weak_ptr<Conn>, StreamMessage>> batch;
    {
      std::lock_guard l(fan_m);
      batch.swap(fan_pending);
      fan_scheduled = false;
    }
    for (auto& [weak, m] : batch)
      if (auto conn = weak.lock()) net::post(conn->executor(), [conn, m = std::move(m)] { conn->push(m); });
  });
}

void HttpServer::Impl::accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (stopped || ec == net::error::operation_aborted) return;
    if (ec) {  // e.g. out of file descriptors: try again shortly instead of spinning
      accept_retry.expires_after(std::chrono::milliseconds(50));
      accept_retry.async_wait([this](beast::error_code e) {
        if (!e && !stopped) accept();
      });
      return;
    }
    on_accept(std::move(socket));
    accept();
  });
}

void HttpServer::Impl::on_accept(tcp::socket socket) {
  beast::error_code ec;
  const auto ep = socket.remote_endpoint(ec);
  if (ec) return;
  const std::string addr = ep.address().to_string();
  socket.set_option(tcp::no_delay(true), ec);  // small JSON answers: no Nagle/delayed-ACK stalls
  std::string why;
  {
    std::lock_guard lk(m);
    if (connections >= opts.max_connections) {
      why = "the server holds its maximum of " + std::to_string(opts.max_connections) + " connections: try again later";
    } else if (per_address[addr] >= opts.max_connections_per_address) {
      why = "too many connections from " + addr + " (at most " + std::to_string(opts.max_connections_per_address) + ")";
    } else {
      ++connections;
      ++per_address[addr];
    }
  }
  if (!why.empty()) return reject(std::move(socket), why);
  auto c = std::make_shared<Conn>(std::move(socket), *this, addr);
  {
    std::lock_guard lk(m);
    live[c.get()] = c;
  }
  net::dispatch(c->executor(), [c] { c->start(); });
}

// 503 to a connection over the limits, then close (after reading what it sent, briefly).
void HttpServer::Impl::reject(tcp::socket socket, const std::string& why) {
  auto s = std::make_shared<beast::tcp_stream>(std::move(socket));
  auto msg = std::make_shared<std::string>(serialize(error_response(503, why), false, false));
  auto scratch = std::make_shared<std::array<char, 4096>>();
  s->expires_after(limits::kLingerTime);
  net::async_write(*s, net::buffer(*msg), [s, msg, scratch](beast::error_code ec, size_t) {
    if (ec) return;
    s->socket().shutdown(tcp::socket::shutdown_send, ec);
    s->async_read_some(net::buffer(*scratch), [s, scratch](beast::error_code, size_t) {
      beast::error_code e;
      s->socket().close(e);
    });
  });
}

// Every stream_keep_alive: a comment to every event stream (proxies close silent ones).
void HttpServer::Impl::tick() {
  ticker.expires_after(opts.stream_keep_alive);
  ticker.async_wait([this](beast::error_code ec) {
    if (ec || stopped) return;
    std::vector<std::shared_ptr<Conn>> all;
    {
      std::lock_guard lk(m);
      for (auto& [p, w] : live)
        if (auto c = w.lock()) all.push_back(std::move(c));
    }
    for (auto& c : all) net::post(c->executor(), [c] { c->push(keep_alive_message()); });
    tick();
  });
}

HttpServer::HttpServer(HttpOptions opts, Handler handler)
    : impl_(std::make_shared<Impl>(std::move(opts), std::move(handler))) {}
HttpServer::~HttpServer() { stop(); }

int HttpServer::bind() {
  Impl& I = *impl_;
  // Each connection is a file descriptor: allow as many as the hard limit.
  if (rlimit rl{}; getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  beast::error_code ec;
  net::ip::address addr = net::ip::make_address(I.opts.host, ec);
  if (ec) {
    tcp::resolver res(I.ioc);
    auto results = res.resolve(I.opts.host, "", ec);
    if (ec || results.empty()) throw std::runtime_error("cannot resolve the address '" + I.opts.host + "'");
    addr = results.begin()->endpoint().address();
  }
  const tcp::endpoint ep(addr, static_cast<unsigned short>(I.opts.port));
  const std::string where = I.opts.host + ":" + std::to_string(I.opts.port);
  I.acceptor.open(ep.protocol(), ec);
  if (!ec) I.acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) I.acceptor.bind(ep, ec);
  if (ec) throw std::runtime_error("cannot listen on " + where + " (" + ec.message() + "; port in use? try --port)");
  I.acceptor.listen(I.opts.backlog, ec);
  if (ec) throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  I.bound_port = I.acceptor.local_endpoint().port();
  return I.bound_port;
}

void HttpServer::start() {
  Impl& I = *impl_;
  I.stopped = false;
  I.handlers.emplace(size_t(std::max(1, I.opts.handler_threads)));
  I.accept();
  I.tick();
  for (int i = 0; i < std::max(1, I.opts.io_threads); ++i) I.threads.emplace_back([&I] { I.ioc.run(); });
}

void HttpServer::stop() {
  Impl& I = *impl_;
  if (I.stopped.exchange(true)) return;
  net::post(I.ioc, [&I] {
    beast::error_code ec;
    I.acceptor.close(ec);
    I.ticker.cancel();
    I.accept_retry.cancel();
  });
  std::vector<std::shared_ptr<Conn>> all;
  {
    std::lock_guard lk(I.m);
    for (auto& [p, w] : I.live)
      if (auto c = w.lock()) all.push_back(std::move(c));
  }
  for (auto& c : all) net::post(c->executor(), [c] { c->close(); });
  all.clear();
  // Let the closes run (they only close sockets), then stop the loop whatever is left.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (I.connections > 0 && std::chrono::steady_clock::now() < deadline && !I.threads.empty())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (I.handlers) {
    I.handlers->stop();
    I.handlers->join();
  }
  I.ioc.stop();
  for (auto& t : I.threads) t.join();
  I.threads.clear();
}

int HttpServer::open_connections() const { return impl_->connections; }
int HttpServer::open_streams() const { return impl_->streams; }

Response handle_bytes(std::string_view raw, const Handler& handler, const HttpOptions& o) {
  Parser p;
  p.header_limit(std::uint32_t(std::min<size_t>(o.max_header_bytes, UINT32_MAX)));
  p.body_limit(o.max_body);
  p.eager(false);
  beast::error_code ec;
  size_t off = 0;
  auto feed = [&] {
    while (!ec && off < raw.size() && !p.is_done()) {
      const size_t n = p.put(net::buffer(raw.data() + off, raw.size() - off), ec);
      off += n;
      if (ec == bhttp::error::need_more) {
        ec = {};
        break;
      }
      if (n == 0 && !ec) break;
      if (p.is_header_done() && !p.eager()) break;
    }
  };
  feed();
  if (!ec && !p.is_header_done()) {
    if (p.got_some()) p.put_eof(ec);  // put_eof's precondition: some bytes were parsed (not so for no bytes)
    if (!ec) ec = bhttp::error::partial_message;
  }
  if (ec) return parse_refusal(ec, !p.get().target().empty() || line_complete(raw, o), o);
  if (auto r = check_header(p, o)) return *r;
  p.eager(true);
  feed();
  if (!ec && !p.is_done()) p.put_eof(ec);
  if (ec) return parse_refusal(ec, true, o);
  Request req;
  req.client = "fuzz";
  if (auto r = to_request(p, req)) return *r;
  if (auto r = guard_request(req, o.allowed_hosts)) return *r;
  return call(handler, req);
}

}  // namespace carc::server
