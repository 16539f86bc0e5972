// PM2 process file: `npm run build && pm2 start ecosystem.config.cjs`.
// Configuration comes from the environment (see README "Configuration"); set it here under `env`.
module.exports = {
  apps: [
    {
      name: 'uplanet-station',
      script: 'dist/src/main.js',
      cwd: __dirname,
      exec_mode: 'fork',
      instances: 1,
      // The service stops in order on SIGTERM (HTTP, streams, relay); give it that long before SIGKILL.
      kill_timeout: 12000,
      max_memory_restart: '1G',
      restart_delay: 2000,
      exp_backoff_restart_delay: 500,
      max_restarts: 50,
      time: true,
      merge_logs: true,
      env: {
        NODE_ENV: 'production',
      },
    },
  ],
};
