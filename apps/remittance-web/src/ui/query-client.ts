import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.js';

/** The signed-in screens' server state (loaded with their frame, not by the sign-in page). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused call (4xx) is an answer, not a glitch: no retry.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
