// JavaScript, not TypeScript: `next start` compiles a next.config.ts with SWC, whose native addon
// then stays in the server's memory (24 MiB resident; the console's process 277 MiB after warm-up
// with it, 249-264 MiB without, at 1.5 million domains).
/** @type {import("next").NextConfig} */
const nextConfig = {
  // PGlite loads its WebAssembly and data files relative to its own package at run time.
  // The password-strength dictionaries (several MB) are loaded from node_modules at the first check, not bundled.
  // bcrypt is a native addon (its checks run on libuv's threads, not the one that serves pages).
  serverExternalPackages: [
    "bcrypt",
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@zxcvbn-ts/core",
    "@zxcvbn-ts/language-common",
    "@zxcvbn-ts/language-en",
  ],
  poweredByHeader: false,
  // Pages leave uncompressed unless COMPRESS=true (validated with the other settings in lib/config.ts):
  // gzip in the server costs its one thread about 5 ms of a 35 ms list page, where the reverse proxy
  // in front (README, In production) does it in its own worker processes.
  compress: process.env.COMPRESS === "true",
  // unauthorized() and forbidden() answer 401 and 403 with the app's own pages.
  experimental: { authInterrupts: true },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
