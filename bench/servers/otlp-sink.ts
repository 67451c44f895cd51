// An OTLP/HTTP receiver that keeps nothing: every export request is read and answered 200 (the
// exporter's success), so a traced gateway pays for making and exporting its spans and no more.
//   node bench/servers/otlp-sink.ts PORT
import { createServer } from 'node:http';
import { exitWithParent, portArgument } from './lifeline.ts';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '0' });
    res.end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(portArgument(), '127.0.0.1');
exitWithParent();
