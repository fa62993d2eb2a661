import { useMutation, useQuery } from "@tanstack/react-query";
import { ApiError, useApiClient, type AnswerErrors, type AnswerValue } from "../../api";

export function useTemplates() {
  const c = useApiClient();
  return useQuery({ queryKey: ["templates"], queryFn: () => c.get("/templates"), staleTime: 5 * 60_000 });
}

export function useTemplate(id: string) {
  const c = useApiClient();
  return useQuery({ queryKey: ["templates", id], queryFn: () => c.get("/templates/{id}", { path: { id } }), staleTime: 5 * 60_000, enabled: id !== "" });
}

/** The server's verdict on answers: valid, or problems per question key. */
export type Verdict = { valid: true } | { valid: false; errors: AnswerErrors; message: string };

/** Asks the server to check answers; a 422 becomes a verdict, other failures throw. */
export function useValidateAnswers(id: string) {
  const c = useApiClient();
  return useMutation({
    mutationFn: async ({ answers, form }: { answers: Record<string, AnswerValue>; form?: string }): Promise<Verdict> => {
      try {
        await c.post("/templates/{id}/validate", { path: { id }, body: form ? { answers, form } : { answers } });
        return { valid: true };
      } catch (err) {
        if (err instanceof ApiError && err.status === 422) {
          return { valid: false, errors: err.problems(), message: err.message };
        }
        throw err;
      }
    },
  });
}
