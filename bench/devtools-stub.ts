/** Ink imports React DevTools only in development; the bundled bench never is. */
export default {};
