import { createContext, useContext } from 'react';

const NonceContext = createContext<string | undefined>(undefined);

/** Provides the CSP nonce of this response to components that render inline scripts. */
export const NonceProvider = NonceContext.Provider;

/** The CSP nonce on the server; undefined in the browser (where it is no longer needed). */
export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
