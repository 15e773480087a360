// Entry point for Zapier (CLI, build and runtime): the app definition bundled from src/ by
// scripts/bundle.mjs (`npm run build -w shortlink-zapier`).
module.exports = require('./dist/app.js');
