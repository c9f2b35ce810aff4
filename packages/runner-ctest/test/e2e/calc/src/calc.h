#pragma once

int add(int a, int b);
int scale(int value, int factor);
int deref(const int* p);
