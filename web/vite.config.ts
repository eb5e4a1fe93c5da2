/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'

const api = process.env.SELLERTRENDS_API ?? 'http://127.0.0.1:3000'

export default defineConfig({
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true }), react(), tailwindcss()],
  server: {
    // The Go server answers the API; without this proxy Vite would serve index.html for
    // /api/auth/get-session and the session would look signed in.
    proxy: { '/api': api, '/_serverFn': api, '/dev': api, '/og-image.png': api },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  test: { environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
})
