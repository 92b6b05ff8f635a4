import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // Fewer, larger chunks for what every page loads (issue 18): the framework in one file
        // and the page shell's small modules in another, instead of a dozen files of 0.1–2 KB,
        // each a request, a modulepreload link and an entry in every page's route manifest.
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser|@tanstack)[\\/]/,
              priority: 2,
            },
            {
              name: 'shell',
              test: /apps[\\/]web[\\/]app[\\/](lib|components|styles)[\\/]|packages[\\/]shared[\\/]dist[\\/](constants|subjects|blog-categories|slug|format)\.js/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
