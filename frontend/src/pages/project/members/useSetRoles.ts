import { useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys, useApi, type ID, type ProjectRole } from "../../../api";

/** Refreshes the member list and the project after a member changed. */
function useMemberRefresh(pid: ID) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.members(pid) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.project(pid), exact: true }),
    ]);
}

/** PUT a user's roles in a project, then refresh the member list and project. */
export function useSetRoles(pid: ID) {
  const api = useApi();
  const onSuccess = useMemberRefresh(pid);
  return useMutation({
    mutationFn: ({ uid, roles }: { uid: ID; roles: ProjectRole[] }) => api.projects.setMemberRoles(pid, uid, roles),
    onSuccess,
  });
}

/** PUT the languages a member reads, then refresh the member list and project. */
export function useSetLanguages(pid: ID) {
  const api = useApi();
  const onSuccess = useMemberRefresh(pid);
  return useMutation({
    mutationFn: ({ uid, languages }: { uid: ID; languages: string[] }) => api.projects.setMemberLanguages(pid, uid, languages),
    onSuccess,
  });
}
