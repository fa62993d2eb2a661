import { useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys, useApi, type ID, type ProjectRole } from "../../../api";

/** PUT a user's roles in a project, then refresh the member list and project. */
export function useSetRoles(pid: ID) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uid, roles }: { uid: ID; roles: ProjectRole[] }) => api.projects.setMemberRoles(pid, uid, roles),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.members(pid) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.project(pid), exact: true }),
      ]),
  });
}
