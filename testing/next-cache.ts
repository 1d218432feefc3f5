// Stand-in for "next/cache" under Vitest: there is no Next render cache to invalidate in tests.
export function revalidatePath(): void {}
export function revalidateTag(): void {}
export function refresh(): void {}
