#pragma once

int add(int a, int b);
int twice(int a);
