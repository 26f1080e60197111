#!/bin/bash
echo "$# arguments"
