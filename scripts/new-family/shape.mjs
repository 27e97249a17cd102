// The fields of the family the scaffold writes, said once for its declaration and its migrations:
// lists narrow it by `status` and sort it by `updatedAt` (a column every collection has).

/** The fields a list narrows by: each gets a column and an index in the migrations. */
export const filters = ['status'];

/** The fields a list sorts by besides `createdAt`. */
export const sorts = ['updatedAt'];
