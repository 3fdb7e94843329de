// The HTTP transport on cpp-httplib (see http.h).
#include "http.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <set>
#include <thread>

namespace carc::server {

namespace {

// One event stream's latest undelivered message (older ones are superseded by it).
struct Mailbox {
  std::mutex m;
  std::condition_variable cv;
  StreamMessage latest;
  bool closed = false;
};

}  // namespace

struct HttpServer::Impl {
  HttpOptions opts;
  Handler handler;
  httplib::Server http;
  std::thread listen_thread;
  int bound_port = 0;
  std::atomic<bool> stopping{false};
  std::atomic<int> open_streams{0};  // event streams hold an HTTP thread each: at most half the pool
  std::mutex boxes_m;
  std::set<std::shared_ptr<Mailbox>> boxes;

  Impl(HttpOptions o, Handler h) : opts(std::move(o)), handler(std::move(h)) {}

  Request request_of(const httplib::Request& r) {
    Request q;
    q.method = r.method;
    q.path = r.path;
    for (const auto& [k, v] : r.params) q.query.emplace(k, v);
    for (const auto& [k, v] : r.headers) q.headers.emplace_back(k, v);
    q.body = r.body;
    q.client = r.remote_addr;
    return q;
  }

  void answer(const httplib::Request& r, httplib::Response& res) {
    Response out = handler(request_of(r));
    res.status = out.status;
    for (const auto& [k, v] : out.headers) res.set_header(k, v);
    if (!out.stream) {
      res.set_content(out.body, out.content_type);
      return;
    }
    if (open_streams.fetch_add(1) >= std::max(2, opts.threads / 2)) {
      --open_streams;
      Response e = error_response(503, "too many open event streams: poll GET /api/games/ID instead");
      res.headers.clear();
      res.status = e.status;
      res.set_content(e.body, e.content_type);
      return;
    }
    auto box = std::make_shared<Mailbox>();
    {
      std::lock_guard lk(boxes_m);
      boxes.insert(box);
    }
    auto source = out.stream;
    auto unsubscribe = std::make_shared<std::function<void()>>();
    res.set_chunked_content_provider(
        out.content_type,
        [this, box, source, unsubscribe](size_t, httplib::DataSink& sink) {
          if (!*unsubscribe)
            *unsubscribe = source->subscribe([box](const StreamMessage& msg) {
              std::lock_guard lk(box->m);
              box->latest = msg;
              box->cv.notify_all();
            });
          std::unique_lock lk(box->m);
          box->cv.wait_for(lk, std::chrono::seconds(15), [&] { return box->closed || box->latest; });
          if (box->closed) {
            lk.unlock();
            sink.done();
            return true;
          }
          std::string msg = box->latest ? *box->latest : std::string(": keep-alive\n\n");
          box->latest.reset();
          lk.unlock();
          if (!sink.is_writable() || !sink.write(msg.data(), msg.size())) return false;
          return true;
        },
        [this, box, unsubscribe](bool) {
          if (*unsubscribe) (*unsubscribe)();
          {
            std::lock_guard lk(boxes_m);
            boxes.erase(box);
          }
          --open_streams;
        });
  }
};

HttpServer::HttpServer(HttpOptions opts, Handler handler)
    : impl_(std::make_unique<Impl>(std::move(opts), std::move(handler))) {}
HttpServer::~HttpServer() { stop(); }

int HttpServer::bind() {
  Impl& I = *impl_;
  auto& h = I.http;
  const int n = std::max(4, I.opts.threads);
  h.new_task_queue = [n] { return new httplib::ThreadPool(size_t(n)); };
  h.set_payload_max_length(I.opts.max_body);
  h.set_tcp_nodelay(true);  // small JSON answers: no Nagle/delayed-ACK stalls
  h.set_keep_alive_max_count(100);
  h.set_read_timeout(10);
  h.set_write_timeout(10);
  auto answer = [&I](const httplib::Request& req, httplib::Response& res) { I.answer(req, res); };
  h.Get(".*", answer);
  h.Post(".*", answer);
  // Errors without a body (404 for unknown paths, 413 for oversized bodies, ...) get one.
  h.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string msg = res.status == 413   ? "the request body is too large"
                      : res.status == 404 ? "not found: " + req.path
                      : res.status == 400 ? "bad request"
                                          : "error " + std::to_string(res.status);
    res.set_content(json{{"error", msg}, {"status", res.status}}.dump(), "application/json");
  });
  h.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string msg = "internal error";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      msg += std::string(": ") + e.what();
    } catch (...) {
    }
    res.status = 500;
    res.set_content(json{{"error", msg}, {"status", 500}}.dump(), "application/json");
  });
  if (!I.opts.web_dir.empty() && std::filesystem::is_directory(I.opts.web_dir)) h.set_mount_point("/", I.opts.web_dir);
  if (I.opts.log_requests)
    h.set_logger([](const httplib::Request& req, const httplib::Response& res) {
      std::cerr << req.method << " " << req.path << " " << res.status << "\n";
    });
  if (I.opts.port == 0) {
    I.bound_port = h.bind_to_any_port(I.opts.host);
    if (I.bound_port < 0) throw std::runtime_error("cannot bind to " + I.opts.host);
  } else {
    if (!h.bind_to_port(I.opts.host, I.opts.port))
      throw std::runtime_error("cannot listen on " + I.opts.host + ":" + std::to_string(I.opts.port) +
                               " (port in use? try --port)");
    I.bound_port = I.opts.port;
  }
  return I.bound_port;
}

void HttpServer::start() {
  impl_->stopping = false;
  impl_->listen_thread = std::thread([this] { impl_->http.listen_after_bind(); });
}

void HttpServer::stop() {
  Impl& I = *impl_;
  if (I.stopping.exchange(true)) return;
  {
    std::lock_guard lk(I.boxes_m);
    for (const auto& box : I.boxes) {
      std::lock_guard bl(box->m);
      box->closed = true;
      box->cv.notify_all();
    }
  }
  I.http.stop();
  if (I.listen_thread.joinable()) I.listen_thread.join();
}

}  // namespace carc::server
