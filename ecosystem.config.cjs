// PM2 process file. Build once, then start:  npm run build && npx pm2 start ecosystem.config.cjs
// Configuration comes from the environment (docs/configuration.md): export it before `pm2 start`, or add
// it under `env` below. Logs go to TMP_DIR (default ~/.zen/tmp) next to the scraper logs.
const { homedir } = require('node:os');
const { join } = require('node:path');

const logDir = process.env.TMP_DIR || join(process.env.HOME || homedir(), '.zen', 'tmp');

module.exports = {
  apps: [
    {
      name: 'uplanet-station',
      script: 'dist/src/main.js',
      cwd: __dirname,
      // One process is enough for a station (see docs/benchmarks.md). Cluster mode is safe: payment
      // journal, drive locks, auth replay records and scraper markers are shared files under TMP_DIR and
      // DATA_ROOT, and only the first instance (NODE_APP_INSTANCE 0) runs the embedded relay (workers share
      // ports, so each running one would split the relay's clients). Rate limits then count per worker.
      exec_mode: process.env.STATION_INSTANCES ? 'cluster' : 'fork',
      instances: Number(process.env.STATION_INSTANCES || 1),
      // The service stops in order on SIGTERM (HTTP, streams, relay) within 10 s; PM2 waits that long.
      kill_timeout: 12000,
      listen_timeout: 15000,
      // No max_memory_restart: PM2 measures the resident set, which counts the pages of the LMDB stores the
      // station maps, file pages the kernel drops whenever it needs the room (a long soak: 2.4 GB resident,
      // 1.96 GB of it file-backed), so at 1G it would restart a healthy station about every 25 minutes. The
      // station stops itself instead (exit code 75) when its heap and anonymous memory stay over
      // MEMORY_LIMIT_MB (default 1024), and autorestart below starts it again (docs/operations.md, "Memory").
      autorestart: true,
      exp_backoff_restart_delay: 500,
      max_restarts: 50,
      min_uptime: '10s',
      out_file: join(logDir, 'uplanet-station.out.log'),
      error_file: join(logDir, 'uplanet-station.err.log'),
      merge_logs: true,
      time: true,
      env: {
        NODE_ENV: 'production',
      },
    },
  ],
};
