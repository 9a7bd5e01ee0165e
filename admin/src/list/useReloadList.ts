import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** Reloads every cached page of a resource's list. */
export function useReloadList(resource: string) {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: [resource] }), [queryClient, resource]);
}
