#ifndef STACK_H
#define STACK_H
#ifdef __cplusplus
extern "C" {
#endif
int stack_pop(int *items, int *size);
#ifdef __cplusplus
}
#endif
#endif
