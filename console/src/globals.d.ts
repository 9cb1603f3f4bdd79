/** Stylesheets are bundled by Vite. */
declare module '*.css';
