/*
 * A small SPARQL 1.1 Protocol server over an Apache Jena TDB2 dataset, for ragprov's engine matrix.
 *
 * Fuseki is not packaged for Debian 12, but the Jena 4.5 jars are (libapache-jena-java). Starting a
 * Jena command-line tool costs a JVM start per query (about a second), so the tests run this server
 * instead: one JVM for the whole test session, speaking the same protocol as Fuseki.
 *
 *   POST /query   form "query=..." (or application/sparql-query body; GET ?query= too)
 *                 SELECT/ASK -> application/sparql-results+json (RDF-star triple terms included),
 *                 CONSTRUCT/DESCRIBE -> application/n-triples
 *   POST /update  form "update=..." (or application/sparql-update body) -> 204
 *   GET  /ping    -> 200 "ok"
 *
 * Each request runs in its own TDB2 transaction (read for queries, write for updates), so an update
 * request is atomic. Syntax errors answer 400, query timeouts 503, anything else 500; the body is the
 * error message as text/plain.
 *
 * Usage: java -cp JENA_CP:BUILD JenaSparqlServer --loc DIR [--port N] [--timeout-ms N] [--read-only]
 * With --port 0 (the default) the system picks a free port; the first line on stdout is
 * "listening on http://127.0.0.1:PORT/" once the server accepts requests. Only 127.0.0.1 is bound.
 */

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.jena.query.Dataset;
import org.apache.jena.query.Query;
import org.apache.jena.query.QueryCancelledException;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.query.QueryExecutionFactory;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.QueryParseException;
import org.apache.jena.query.ResultSetFormatter;
import org.apache.jena.rdf.model.Model;
import org.apache.jena.riot.Lang;
import org.apache.jena.riot.RDFDataMgr;
import org.apache.jena.system.Txn;
import org.apache.jena.tdb2.TDB2Factory;
import org.apache.jena.update.UpdateAction;
import org.apache.jena.update.UpdateFactory;
import org.apache.jena.update.UpdateRequest;

public class JenaSparqlServer {

    private static final class HttpError extends Exception {
        final int status;

        HttpError(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    private final Dataset dataset;
    private final long timeoutMs;
    private final boolean readOnly;

    JenaSparqlServer(Dataset dataset, long timeoutMs, boolean readOnly) {
        this.dataset = dataset;
        this.timeoutMs = timeoutMs;
        this.readOnly = readOnly;
    }

    public static void main(String[] args) throws Exception {
        String loc = null;
        int port = 0;
        long timeoutMs = 60_000;
        boolean readOnly = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--loc": loc = args[++i]; break;
                case "--port": port = Integer.parseInt(args[++i]); break;
                case "--timeout-ms": timeoutMs = Long.parseLong(args[++i]); break;
                case "--read-only": readOnly = true; break;
                default:
                    System.err.println("unknown argument " + args[i]
                        + "; usage: JenaSparqlServer --loc DIR [--port N] [--timeout-ms N] [--read-only]");
                    System.exit(2);
            }
        }
        if (loc == null) {
            System.err.println("--loc DIR is required (the TDB2 database directory)");
            System.exit(2);
        }
        Dataset dataset = TDB2Factory.connectDataset(loc);
        JenaSparqlServer app = new JenaSparqlServer(dataset, timeoutMs, readOnly);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        server.setExecutor(pool);
        server.createContext("/query", app::handleQuery);
        server.createContext("/update", app::handleUpdate);
        server.createContext("/ping", ex -> app.send(ex, 200, "text/plain", "ok\n".getBytes(StandardCharsets.UTF_8)));
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            pool.shutdown();
            try {
                pool.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }));
        System.out.println("listening on http://127.0.0.1:" + server.getAddress().getPort() + "/");
        System.out.flush();
    }

    // -- request parsing ----------------------------------------------------------------------

    private static Map<String, String> parseForm(String body) {
        Map<String, String> out = new HashMap<>();
        if (body == null || body.isEmpty()) {
            return out;
        }
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            out.put(URLDecoder.decode(key, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return out;
    }

    private static String readBody(HttpExchange ex) throws IOException {
        try (InputStream in = ex.getRequestBody()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The operation text: form field {@code field}, a raw body of {@code rawType}, or (GET) the query string. */
    private static String operation(HttpExchange ex, String field, String rawType, boolean allowGet) throws IOException, HttpError {
        String method = ex.getRequestMethod();
        if ("GET".equals(method) && allowGet) {
            String text = parseForm(ex.getRequestURI().getRawQuery()).get(field);
            if (text == null) {
                throw new HttpError(400, "missing parameter '" + field + "'");
            }
            return text;
        }
        if (!"POST".equals(method)) {
            throw new HttpError(405, "use POST" + (allowGet ? " or GET" : ""));
        }
        String type = ex.getRequestHeaders().getFirst("Content-Type");
        String body = readBody(ex);
        if (type != null && type.toLowerCase().startsWith(rawType)) {
            return body;
        }
        String text = parseForm(body).get(field);
        if (text == null) {
            throw new HttpError(400, "missing form field '" + field + "' (application/x-www-form-urlencoded)");
        }
        return text;
    }

    // -- handlers -------------------------------------------------------------------------------

    private void handleQuery(HttpExchange ex) throws IOException {
        try {
            String text = operation(ex, "query", "application/sparql-query", true);
            Query query;
            try {
                query = QueryFactory.create(text);
            } catch (QueryParseException e) {
                throw new HttpError(400, "query parse error: " + e.getMessage());
            }
            String[] contentType = new String[1];
            byte[] body = Txn.calculateRead(dataset, () -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (QueryExecution qe = QueryExecutionFactory.create(query, dataset)) {
                    if (timeoutMs > 0) {
                        qe.setTimeout(timeoutMs);
                    }
                    if (query.isSelectType()) {
                        ResultSetFormatter.outputAsJSON(out, qe.execSelect());
                        contentType[0] = "application/sparql-results+json";
                    } else if (query.isAskType()) {
                        ResultSetFormatter.outputAsJSON(out, qe.execAsk());
                        contentType[0] = "application/sparql-results+json";
                    } else {
                        Model model = query.isConstructType() ? qe.execConstruct() : qe.execDescribe();
                        RDFDataMgr.write(out, model, Lang.NTRIPLES);
                        contentType[0] = "application/n-triples";
                    }
                }
                return out.toByteArray();
            });
            send(ex, 200, contentType[0], body);
        } catch (HttpError e) {
            send(ex, e.status, "text/plain", (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (QueryCancelledException e) {
            send(ex, 503, "text/plain", ("query timed out after " + timeoutMs + " ms\n").getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            send(ex, 500, "text/plain", (e.getClass().getSimpleName() + ": " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private void handleUpdate(HttpExchange ex) throws IOException {
        try {
            if (readOnly) {
                throw new HttpError(403, "this server is read-only");
            }
            String text = operation(ex, "update", "application/sparql-update", false);
            UpdateRequest request;
            try {
                request = UpdateFactory.create(text);
            } catch (QueryParseException e) {
                throw new HttpError(400, "update parse error: " + e.getMessage());
            }
            Txn.executeWrite(dataset, () -> UpdateAction.execute(request, dataset));
            send(ex, 204, null, null);
        } catch (HttpError e) {
            send(ex, e.status, "text/plain", (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            send(ex, 500, "text/plain", (e.getClass().getSimpleName() + ": " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private void send(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
        try {
            if (contentType != null) {
                ex.getResponseHeaders().set("Content-Type", contentType + (contentType.startsWith("text/") ? "; charset=utf-8" : ""));
            }
            ex.getResponseHeaders().set("Server", "ragprov-jena-tdb2 (Apache Jena 4)");
            if (body == null || body.length == 0) {
                ex.sendResponseHeaders(status, -1);
            } else {
                ex.sendResponseHeaders(status, body.length);
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(body);
                }
            }
        } finally {
            ex.close();
        }
    }
}
